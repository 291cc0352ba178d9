import {
  type ApiKeyRecord,
  apiKeyIdOf,
  generateApiKey,
  hashApiKey,
  type KeyGrant,
  type KeyStore,
  keyGrantProblems,
  keyRecordOf,
  storedBudgetOf,
} from '@oqlkit/engine'
import { type CliCommand, type CommandContext, type CommandResult, json } from './cli-command.ts'
import {
  choiceOption,
  numberOption,
  type OptionValues,
  parseCommandLine,
  UsageProblem,
  withUsageProblems,
} from './command-line-parser.ts'
import { KEY_ACTIONS, KEYS_COMMAND_LINE, USD } from './keys-command-line.ts'
import { describeLocation, openKeyStore, readStoreLocation, type StoreLocation } from './metering-setup.ts'
import { STATE_DIR_NAME, STORE_OPTIONS } from './store-options.ts'

type Action = keyof typeof KEY_ACTIONS

/** The shortest key id prefix accepted: shorter ones would match too many keys to be a safe handle. */
const MIN_KEY_ID_LENGTH = 8

const amountOption = (flag: string, text: string | undefined): number | undefined =>
  numberOption(flag, text, `${USD}`, (value) => value >= 0)

/**
 * `oqlkit keys`: issues, lists, revokes and updates API keys in the embedded store (`--state DIR`, default
 * `.oqlkit-state`) or in Redis (`--redis URL`). A key is printed once, at `create`; the stores hold only
 * its SHA-256, and the other actions name a key by its id (the first 12 hex digits of that hash) or by the
 * key itself. A running server sees every change on the key's next use (the embedded store within a
 * second), with no restart; every change is one durable write, made only after the whole command line
 * was checked.
 */
export const keysCommand: CliCommand = {
  name: 'keys',
  usage: `${KEYS_COMMAND_LINE.synopsis}
       (oqlkit keys --help describes every option; a key id is what keys list shows)`,
  run(args, context) {
    return withUsageProblems(this, async () => {
      const [action, ...rest] = args
      if (action === undefined || action.startsWith('-'))
        throw new UsageProblem(`no action given: one of ${Object.keys(KEY_ACTIONS).join(', ')}`)
      if (!Object.hasOwn(KEY_ACTIONS, action))
        throw new UsageProblem(`unknown action '${action}': one of ${Object.keys(KEY_ACTIONS).join(', ')}`)
      const { values } = parseCommandLine(rest, { ...KEY_ACTIONS[action as Action], ...STORE_OPTIONS })
      const location = readStoreLocation(values, STATE_DIR_NAME)
      if (action === 'create')
        return create(values as OptionValues<typeof KEY_ACTIONS.create>, location, context)
      if (action === 'list') return list(values as OptionValues<typeof KEY_ACTIONS.list>, location)
      // Both remaining actions name a key: which one is checked before anything else they read.
      checkWhichKey(values as OptionValues<typeof KEY_ACTIONS.revoke>)
      if (action === 'revoke')
        return revoke(values as OptionValues<typeof KEY_ACTIONS.revoke>, location, context)
      return update(values as OptionValues<typeof KEY_ACTIONS.update>, location, context)
    })
  },
}

const failure = (error: unknown): CommandResult => ({
  exitCode: 1,
  stderr: `oqlkit keys: ${error instanceof Error ? error.message : String(error)}\n`,
})

/** Runs `body` on the key store of a location, closing it after; a store that cannot open is exit 1. */
const withKeyStore = async (
  location: StoreLocation,
  body: (keys: KeyStore) => Promise<CommandResult>,
): Promise<CommandResult> => {
  let stores: Awaited<ReturnType<typeof openKeyStore>>
  try {
    stores = await openKeyStore(location)
  } catch (error) {
    return failure(error)
  }
  try {
    return await body(stores.keys)
  } catch (error) {
    if (error instanceof UsageProblem) throw error
    return failure(error)
  } finally {
    await stores.close()
  }
}

/** A grant's problems (the engine names its fields `daily_budget_usd`…), as the flags that set them. */
const checkGrant = (grant: KeyGrant): void => {
  const problems = keyGrantProblems(grant)
  if (problems.length > 0)
    throw new UsageProblem(
      problems
        .map((problem) =>
          problem.replace(/^(user_id|daily_budget_usd|prepaid_usd|prepaid_expires_at)\b/, (field) =>
            field === 'user_id' ? '--user' : `--${field.replaceAll('_', '-')}`,
          ),
        )
        .join('; '),
    )
}

const create = async (
  values: OptionValues<typeof KEY_ACTIONS.create>,
  location: StoreLocation,
  context: CommandContext,
): Promise<CommandResult> => {
  if (values.user === undefined)
    throw new UsageProblem('--user is required: the id of the account the key belongs to')
  const grant: { -readonly [K in keyof KeyGrant]: KeyGrant[K] } = {
    userId: values.user,
    admin: values.admin === true,
  }
  const daily = amountOption('--daily-budget-usd', values['daily-budget-usd'])
  if (daily !== undefined) grant.dailyBudgetUsd = daily
  const prepaid = amountOption('--prepaid-usd', values['prepaid-usd'])
  if (prepaid !== undefined) grant.prepaidUsd = prepaid
  if (values['prepaid-expires-at'] !== undefined) grant.prepaidExpiresAt = values['prepaid-expires-at']
  checkGrant(grant)
  return withKeyStore(location, async (keys) => {
    const key = generateApiKey()
    const record = await keyRecordOf(key, grant, new Date())
    await keys.putKey(record)
    context.writeProgress(
      `Key ${apiKeyIdOf(record.keyHash)} for user ${grant.userId}${grant.admin === true ? ' (admin)' : ''} stored, hashed, in ${describeLocation(location)}. It is shown only this once.\n`,
    )
    return { exitCode: 0, stdout: `${key}\n` }
  })
}

const money = (usd: number | null): string => (usd === null ? 'default' : `$${usd.toFixed(2)}`)

/**
 * A record as `keys list --format json` and `keys update` print it: the id and the grant, never the key or its
 * hash. In snake_case, as the table's columns, the API (`/rate-limit`) and the flags (`--daily-budget-usd`) are.
 */
const listedRecord = (record: ApiKeyRecord) => ({
  key_id: apiKeyIdOf(record.keyHash),
  user_id: record.userId,
  admin: record.admin,
  daily_budget_usd: record.dailyBudgetUsd,
  prepaid_usd: record.prepaidUsd,
  prepaid_expires_at: record.prepaidExpiresAt,
  created_at: record.createdAt,
  revoked_at: record.revokedAt ?? null,
  masked_key: record.maskedKey,
})

const COLUMNS = ['key id', 'user', 'admin', 'daily', 'prepaid', 'prepaid expires', 'created', 'revoked']

const list = async (
  values: OptionValues<typeof KEY_ACTIONS.list>,
  location: StoreLocation,
): Promise<CommandResult> => {
  const format = choiceOption('--format', values.format, ['table', 'json'] as const) ?? 'table'
  return withKeyStore(location, async (keys) => {
    const records = await keys.listKeys()
    if (format === 'json') return { exitCode: 0, stdout: json(records.map(listedRecord)) }
    if (records.length === 0) return { exitCode: 0, stdout: `No keys in ${describeLocation(location)}.\n` }
    const rows = records.map((record) => [
      apiKeyIdOf(record.keyHash),
      record.userId,
      record.admin ? 'yes' : 'no',
      money(record.dailyBudgetUsd),
      money(record.prepaidUsd),
      record.prepaidExpiresAt ?? 'never',
      record.createdAt,
      record.revokedAt ?? 'no',
    ])
    const widths = COLUMNS.map((column, index) =>
      Math.max(column.length, ...rows.map((row) => row[index]!.length)),
    )
    const line = (cells: readonly string[]) =>
      cells
        .map((cell, index) => cell.padEnd(widths[index]!))
        .join('  ')
        .trimEnd()
    return { exitCode: 0, stdout: `${[COLUMNS, ...rows].map(line).join('\n')}\n` }
  })
}

/** The record `--key-id` or `--key` names, revoked ones included; a UsageProblem or a failure otherwise. */
const findRecord = async (
  keys: KeyStore,
  values: { readonly 'key-id'?: string; readonly key?: string },
  location: StoreLocation,
): Promise<ApiKeyRecord | CommandResult> => {
  const records = await keys.listKeys()
  if (values.key !== undefined) {
    const hash = await hashApiKey(values.key)
    const record = records.find((candidate) => candidate.keyHash === hash)
    return record ?? failure(`that key is not in ${describeLocation(location)}`)
  }
  const id = values['key-id']!.toLowerCase()
  const matches = records.filter((record) => record.keyHash.startsWith(id))
  if (matches.length === 1) return matches[0]!
  return failure(
    matches.length === 0
      ? `no key with id ${id} in ${describeLocation(location)} (\`oqlkit keys list\` shows the ids)`
      : `the id ${id} matches ${matches.length} keys (${matches.map((record) => apiKeyIdOf(record.keyHash)).join(', ')}): give more of it`,
  )
}

/** Runs `act` on the record of the key that `values` names (and its id), or answers that there is none. */
const withNamedKey = (
  values: OptionValues<typeof KEY_ACTIONS.revoke>,
  location: StoreLocation,
  act: (keys: KeyStore, record: ApiKeyRecord, id: string) => Promise<CommandResult>,
): Promise<CommandResult> =>
  withKeyStore(location, async (keys) => {
    const record = await findRecord(keys, values, location)
    return 'keyHash' in record ? act(keys, record, apiKeyIdOf(record.keyHash)) : record
  })

const checkWhichKey = (values: { readonly 'key-id'?: string; readonly key?: string }): void => {
  if (values['key-id'] === undefined && values.key === undefined)
    throw new UsageProblem('say which key: --key-id ID (as `oqlkit keys list` shows it) or --key KEY')
  if (values['key-id'] !== undefined && values.key !== undefined)
    throw new UsageProblem('--key-id and --key both name a key: give one')
  const id = values['key-id']
  if (id !== undefined && !new RegExp(`^[0-9a-fA-F]{${MIN_KEY_ID_LENGTH},64}$`).test(id))
    throw new UsageProblem(
      `--key-id needs ${MIN_KEY_ID_LENGTH} to 64 hex digits, as \`oqlkit keys list\` shows them (was ${id})`,
    )
}

const revoke = async (
  values: OptionValues<typeof KEY_ACTIONS.revoke>,
  location: StoreLocation,
  context: CommandContext,
): Promise<CommandResult> => {
  return withNamedKey(values, location, async (keys, record, id) => {
    if (record.revokedAt !== undefined) {
      context.writeProgress(`Key ${id} was revoked already, at ${record.revokedAt}; nothing changed.\n`)
      return { exitCode: 0, stdout: `${id}\n` }
    }
    await keys.putKey({ ...record, revokedAt: new Date().toISOString() })
    context.writeProgress(
      `Key ${id} of user ${record.userId} revoked in ${describeLocation(location)}: a running server refuses it (401) from its next use.\n`,
    )
    return { exitCode: 0, stdout: `${id}\n` }
  })
}

const update = async (
  values: OptionValues<typeof KEY_ACTIONS.update>,
  location: StoreLocation,
  context: CommandContext,
): Promise<CommandResult> => {
  const dailyText = values['daily-budget-usd']
  // `default` hands the key back to the server's default daily budget; `never` lifts the expiry.
  const daily = dailyText === 'default' ? null : amountOption('--daily-budget-usd', dailyText)
  const prepaid = amountOption('--prepaid-usd', values['prepaid-usd'])
  const expiresText = values['prepaid-expires-at']
  const expires = expiresText === 'never' ? null : expiresText
  if (expires !== null && expires !== undefined && Number.isNaN(Date.parse(expires)))
    throw new UsageProblem(
      `--prepaid-expires-at needs an ISO 8601 time such as 2031-01-01T00:00:00Z, or never (was ${expires})`,
    )
  if (dailyText === undefined && prepaid === undefined && expiresText === undefined)
    throw new UsageProblem(
      'nothing to change: give --daily-budget-usd, --prepaid-usd or --prepaid-expires-at',
    )
  return withNamedKey(values, location, async (keys, record, id) => {
    if (record.revokedAt !== undefined)
      return failure(
        `key ${id} was revoked at ${record.revokedAt}; issue a new one with \`oqlkit keys create\``,
      )
    const grant: KeyGrant = {
      userId: record.userId,
      admin: record.admin,
      dailyBudgetUsd: daily === undefined ? record.dailyBudgetUsd : daily,
      prepaidUsd: prepaid ?? record.prepaidUsd,
      prepaidExpiresAt: expires === undefined ? record.prepaidExpiresAt : expires,
    }
    checkGrant(grant)
    const updated: ApiKeyRecord = { ...record, ...storedBudgetOf(grant) }
    await keys.putKey(updated)
    context.writeProgress(`Key ${id} of user ${record.userId} updated in ${describeLocation(location)}.\n`)
    return { exitCode: 0, stdout: json(listedRecord(updated)) }
  })
}
