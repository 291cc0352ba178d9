import { generateApiKey, type KeyGrant, keyGrantProblems, keyRecordOf } from '@oqlkit/engine'
import { type CliCommand, usageError } from './cli-command.ts'
import { describeLocation, openKeyStore, readStoreLocation, STATE_DIR_NAME } from './metering-setup.ts'

const VALUED = [
  '--user',
  '--daily-budget-usd',
  '--prepaid-usd',
  '--prepaid-expires-at',
  '--state',
  '--redis',
  '--redis-prefix',
]
const FLAGS = ['--admin']

const amount = (text: string | undefined): number | undefined =>
  text === undefined || !/^\d+(\.\d+)?$/.test(text.trim()) ? undefined : Number(text)

/**
 * `oqlkit keys create`: issues a key (256 random bits), stores its SHA-256 with the grant, and prints
 * the key, once: it cannot be read back. The store is the embedded one (`--state DIR`, default
 * `.oqlkit-state`) or Redis (`--redis URL`); a running server sees the new key on its first use.
 */
export const keysCommand: CliCommand = {
  name: 'keys',
  usage: `oqlkit keys create --user <id> [--admin] [--daily-budget-usd N] [--prepaid-usd N] [--prepaid-expires-at ISO-TIME] [--state DIR | --redis URL [--redis-prefix P]]   (default --state ${STATE_DIR_NAME})`,
  summary: 'Issue an API key (printed once, stored hashed) with its budgets.',
  async run(args, context) {
    const [action, ...rest] = args
    if (action !== 'create')
      return usageError(this, action === undefined ? 'no action given' : `unknown action '${action}'`)
    const positional: string[] = []
    for (let index = 0; index < rest.length; index++) {
      const arg = rest[index] as string
      if (VALUED.includes(arg)) {
        const value = rest[index + 1]
        if (value === undefined || value.startsWith('--')) return usageError(this, `${arg} needs a value`)
        index++
      } else if (!FLAGS.includes(arg)) positional.push(arg)
    }
    if (positional.length > 0)
      return usageError(
        this,
        positional[0]?.startsWith('--')
          ? `unknown option ${positional[0]}`
          : `unexpected argument ${positional[0]}`,
      )
    const value = (name: string): string | undefined => {
      const index = rest.indexOf(name)
      return index === -1 ? undefined : rest[index + 1]
    }
    const user = value('--user')
    if (user === undefined)
      return usageError(this, '--user is required: the id of the account the key belongs to')
    const grant: { -readonly [K in keyof KeyGrant]: KeyGrant[K] } = {
      userId: user,
      admin: rest.includes('--admin'),
    }
    for (const [name, field] of [
      ['--daily-budget-usd', 'dailyBudgetUsd'],
      ['--prepaid-usd', 'prepaidUsd'],
    ] as const) {
      const text = value(name)
      if (text === undefined) continue
      const parsed = amount(text)
      if (parsed === undefined)
        return usageError(this, `${name} needs an amount of US dollars such as 2.50 (was ${text})`)
      grant[field] = parsed
    }
    const expires = value('--prepaid-expires-at')
    if (expires !== undefined) grant.prepaidExpiresAt = expires
    const problems = keyGrantProblems(grant)
    if (problems.length > 0) return usageError(this, problems.join('; '))
    const location = readStoreLocation(rest, STATE_DIR_NAME)
    if (typeof location === 'string') return usageError(this, location)

    try {
      const stores = await openKeyStore(location)
      const key = generateApiKey()
      try {
        await stores.keys.putKey(await keyRecordOf(key, grant, new Date()))
      } finally {
        await stores.close()
      }
      context.writeProgress(
        `Key for user ${user}${grant.admin === true ? ' (admin)' : ''} stored, hashed, in ${describeLocation(location)}. It is shown only this once.\n`,
      )
      return { exitCode: 0, stdout: `${key}\n` }
    } catch (error) {
      return {
        exitCode: 1,
        stderr: `oqlkit keys: ${error instanceof Error ? error.message : String(error)}\n`,
      }
    }
  },
}
