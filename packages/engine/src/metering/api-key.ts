/**
 * What the server knows of an API key. The key itself is never stored: `keyHash` (SHA-256, hex) is the
 * lookup handle and `maskedKey` is what reports may show.
 */
export interface ApiKeyRecord {
  readonly keyHash: string
  readonly userId: string
  readonly admin: boolean
  /** The key's own daily budget; null for the default (`MeteringLimits.keyDailyBudgetUsd`). */
  readonly dailyBudgetUsd: number | null
  /** The prepaid amount credited to the key: spent after the daily budget, never reset. */
  readonly prepaidUsd: number
  /** When the prepaid balance stops being usable (ISO 8601), or null for never. */
  readonly prepaidExpiresAt: string | null
  readonly createdAt: string
  /** The key with all but its first and last four characters hidden. */
  readonly maskedKey: string
  /**
   * When the key was revoked (ISO 8601); absent for a live key. A revoked record stays in the store (so
   * `oqlkit keys list` shows it) but is never found: the server answers its key 401 like an unknown one.
   */
  readonly revokedAt?: string
}

/** Hex digits of the key hash that make a key's id: 48 bits, unique among any realistic number of keys. */
const KEY_ID_LENGTH = 12

/**
 * The id of a key, safe to print and log: the first 12 hex digits of its SHA-256 (`keyHash`). It names
 * the key in `oqlkit keys list`, `revoke` and `update` without revealing anything of the key.
 */
export const apiKeyIdOf = (keyHash: string): string => keyHash.slice(0, KEY_ID_LENGTH)

/**
 * The shape a key must have to be looked up at all: 16 to 128 URL-safe characters (what `oqlkit keys
 * create` issues, and UUIDs or similar tokens a deployment provisions). Anything else is refused before
 * hashing, so junk of any length or alphabet costs nothing and is never echoed.
 */
export const API_KEY_PATTERN = /^[A-Za-z0-9_-]{16,128}$/

export const isWellFormedApiKey = (key: string): boolean => API_KEY_PATTERN.test(key)

/** The prefix of the keys this server issues, so a leaked one is recognisable in logs and scanners. */
export const ISSUED_KEY_PREFIX = 'oqk_'

/** A key as reports show it: the first and last four characters, the rest hidden. */
export const maskApiKey = (key: string): string =>
  key.length <= 8 ? '*'.repeat(key.length) : `${key.slice(0, 4)}…${key.slice(-4)}`

const toHex = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')

/**
 * The stored handle of a key: SHA-256 in hex. Not bcrypt or scrypt on purpose: the key is looked up on
 * every request, so the hash must be fast and deterministic (a salted slow hash cannot be an index, and
 * would cost tens of milliseconds per call). That is safe because issued keys carry 256 random bits:
 * nothing is gained by guessing against a fast hash, unlike with passwords. Web Crypto keeps the
 * engine free of `node:` imports.
 */
export const hashApiKey = async (key: string): Promise<string> =>
  toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key))))

const toBase64Url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '')

/** A new key: the issued prefix and 32 random bytes (256 bits) in base64url, 47 characters in all. */
export const generateApiKey = (): string => {
  const bytes = new Uint8Array(32)
  crypto.getRandomValues(bytes)
  return `${ISSUED_KEY_PREFIX}${toBase64Url(bytes)}`
}
