import { createHash } from 'node:crypto'
import type { RedisClient } from './redis-connection.ts'

/**
 * A Lua script run by its SHA-1 (EVALSHA), sent in full (EVAL) only when the server does not have it
 * yet (after a restart or SCRIPT FLUSH): one round trip per call, and Redis runs it atomically.
 */
export class RedisScript {
  readonly #source: string
  readonly #sha: string

  constructor(source: string) {
    this.#source = source
    this.#sha = createHash('sha1').update(source).digest('hex')
  }

  async run(
    client: RedisClient,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown> {
    try {
      return await client.evalsha(this.#sha, keys.length, ...keys, ...args)
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error
      return client.eval(this.#source, keys.length, ...keys, ...args)
    }
  }
}
