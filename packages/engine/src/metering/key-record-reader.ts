import { type ApiKeyRecord, hashApiKey, isWellFormedApiKey, maskApiKey } from './api-key.ts'

const MAX_USER_ID_LENGTH = 200
/** Larger amounts are surely typing mistakes (and would leave the exact range of micro-dollar sums). */
const MAX_USD = 1_000_000_000

/** What a key is issued with, as `oqlkit keys create` and a keys file state it. */
export interface KeyGrant {
  readonly userId: string
  readonly admin?: boolean
  readonly dailyBudgetUsd?: number | null
  readonly prepaidUsd?: number
  readonly prepaidExpiresAt?: string | null
}

export type KeyGrantProblem = string

const hasControlCharacter = (text: string): boolean =>
  Array.from(text).some((character) => {
    const code = character.codePointAt(0) ?? 0
    return code < 0x20 || code === 0x7f
  })

const amountProblem = (name: string, value: unknown): KeyGrantProblem | undefined =>
  typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_USD
    ? `${name} must be a number of US dollars from 0 to ${MAX_USD} (was ${JSON.stringify(value)})`
    : undefined

/** Every problem of a grant (empty when it is valid), each naming the field and the value received. */
export const keyGrantProblems = (grant: KeyGrant): KeyGrantProblem[] => {
  const problems: KeyGrantProblem[] = []
  if (typeof grant.userId !== 'string' || grant.userId.trim() === '')
    problems.push(`user_id must be a non-empty string (was ${JSON.stringify(grant.userId)})`)
  else if (grant.userId.length > MAX_USER_ID_LENGTH || hasControlCharacter(grant.userId))
    problems.push(`user_id must be at most ${MAX_USER_ID_LENGTH} characters without control characters`)
  if (grant.admin !== undefined && typeof grant.admin !== 'boolean')
    problems.push(`admin must be true or false (was ${JSON.stringify(grant.admin)})`)
  if (grant.dailyBudgetUsd !== undefined && grant.dailyBudgetUsd !== null) {
    const problem = amountProblem('daily_budget_usd', grant.dailyBudgetUsd)
    if (problem !== undefined) problems.push(problem)
  }
  if (grant.prepaidUsd !== undefined) {
    const problem = amountProblem('prepaid_usd', grant.prepaidUsd)
    if (problem !== undefined) problems.push(problem)
  }
  const expires = grant.prepaidExpiresAt
  if (
    expires !== undefined &&
    expires !== null &&
    (typeof expires !== 'string' || Number.isNaN(Date.parse(expires)))
  )
    problems.push(`prepaid_expires_at must be an ISO 8601 timestamp or null (was ${JSON.stringify(expires)})`)
  return problems
}

/**
 * A grant's budget as a key record stores it: no daily budget is null (the server's default), no prepaid
 * amount 0, an expiry an ISO time or null; the grant must be valid.
 */
export const storedBudgetOf = (
  grant: KeyGrant,
): Pick<ApiKeyRecord, 'dailyBudgetUsd' | 'prepaidUsd' | 'prepaidExpiresAt'> => ({
  dailyBudgetUsd: grant.dailyBudgetUsd ?? null,
  prepaidUsd: grant.prepaidUsd ?? 0,
  prepaidExpiresAt:
    grant.prepaidExpiresAt === undefined || grant.prepaidExpiresAt === null
      ? null
      : new Date(grant.prepaidExpiresAt).toISOString(),
})

/** The stored record of a key and its grant (hashing the key); the grant must be valid. */
export const keyRecordOf = async (key: string, grant: KeyGrant, createdAt: Date): Promise<ApiKeyRecord> => ({
  keyHash: await hashApiKey(key),
  userId: grant.userId,
  admin: grant.admin ?? false,
  ...storedBudgetOf(grant),
  createdAt: createdAt.toISOString(),
  maskedKey: maskApiKey(key),
})

const FILE_FIELDS = ['key', 'user_id', 'admin', 'daily_budget_usd', 'prepaid_usd', 'prepaid_expires_at']

export type KeysFileReading =
  | { readonly ok: true; readonly records: readonly ApiKeyRecord[] }
  | { readonly ok: false; readonly problems: readonly string[] }

/**
 * Reads the parsed JSON of a keys file, `[{key, user_id, admin?, daily_budget_usd?, prepaid_usd?,
 * prepaid_expires_at?}]`, into key records. Every problem is reported with the entry's index; a file
 * with any problem yields no records, so a typo never half-provisions a deployment.
 */
export const readKeysFile = async (parsed: unknown, now: Date): Promise<KeysFileReading> => {
  if (!Array.isArray(parsed))
    return {
      ok: false,
      problems: [
        'a keys file holds a JSON array of objects, each with key, user_id and the rest of a key record',
      ],
    }
  const problems: string[] = []
  const records: ApiKeyRecord[] = []
  const seen = new Set<string>()
  for (const [index, entry] of parsed.entries()) {
    const where = `entry ${index}`
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${where}: must be an object`)
      continue
    }
    const fields = entry as Record<string, unknown>
    const unknown = Object.keys(fields).filter((name) => !FILE_FIELDS.includes(name))
    if (unknown.length > 0)
      problems.push(
        `${where}: unknown field(s) ${unknown.join(', ')}; valid fields: ${FILE_FIELDS.join(', ')}`,
      )
    const key = fields.key
    if (typeof key !== 'string' || !isWellFormedApiKey(key)) {
      problems.push(`${where}: key must be 16 to 128 characters of A-Z, a-z, 0-9, '_' and '-'`)
      continue
    }
    if (seen.has(key)) problems.push(`${where}: the same key appears twice`)
    seen.add(key)
    const grant = {
      userId: fields.user_id,
      admin: fields.admin,
      dailyBudgetUsd: fields.daily_budget_usd,
      prepaidUsd: fields.prepaid_usd,
      prepaidExpiresAt: fields.prepaid_expires_at,
    } as KeyGrant
    const grantProblems = keyGrantProblems(grant)
    problems.push(...grantProblems.map((problem) => `${where}: ${problem}`))
    if (grantProblems.length === 0) records.push(await keyRecordOf(key, grant, now))
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, records }
}

const RECORD_STRING_FIELDS = ['keyHash', 'userId', 'createdAt', 'maskedKey'] as const

/**
 * A stored key record read back (from a file line or a Redis value), checked field by field: a damaged
 * or foreign value yields undefined, so it is skipped rather than trusted.
 */
export const readApiKeyRecord = (value: unknown): ApiKeyRecord | undefined => {
  if (typeof value !== 'object' || value === null) return undefined
  const fields = value as Record<string, unknown>
  if (!RECORD_STRING_FIELDS.every((name) => typeof fields[name] === 'string')) return undefined
  if (!/^[0-9a-f]{64}$/.test(fields.keyHash as string)) return undefined
  if (typeof fields.admin !== 'boolean' || typeof fields.prepaidUsd !== 'number') return undefined
  if (fields.dailyBudgetUsd !== null && typeof fields.dailyBudgetUsd !== 'number') return undefined
  if (fields.prepaidExpiresAt !== null && typeof fields.prepaidExpiresAt !== 'string') return undefined
  if (fields.revokedAt !== undefined && typeof fields.revokedAt !== 'string') return undefined
  return {
    keyHash: fields.keyHash as string,
    userId: fields.userId as string,
    admin: fields.admin,
    dailyBudgetUsd: fields.dailyBudgetUsd as number | null,
    prepaidUsd: fields.prepaidUsd,
    prepaidExpiresAt: fields.prepaidExpiresAt as string | null,
    createdAt: fields.createdAt as string,
    maskedKey: fields.maskedKey as string,
    ...(fields.revokedAt === undefined ? {} : { revokedAt: fields.revokedAt as string }),
  }
}
