// Where `serve` and `keys` keep API keys and budgets: their shared options, declared once for both command
// lines (kept free of the stores themselves, so `--help` loads none of them).
export const STATE_DIR_NAME = '.oqlkit-state'

export const DEFAULT_REDIS_PREFIX = 'oqlkit:'

export const STORE_OPTIONS = {
  state: {
    type: 'string',
    value: 'a folder for keys and budgets',
    placeholder: 'DIR',
    help: `The embedded store of keys, budgets and (for serve) collections: a folder, created when missing (default ${STATE_DIR_NAME}, beside the catalog for serve, in the working folder for keys).`,
  },
  redis: {
    type: 'string',
    value: 'a redis:// or rediss:// URL',
    placeholder: 'URL',
    help: 'Keep keys and budgets in Redis (or a Redis Cluster) instead, shared by every server that names it.',
  },
  'redis-prefix': {
    type: 'string',
    value: 'a key prefix such as oqlkit:',
    placeholder: 'P',
    help: `The prefix of every Redis key written (default ${DEFAULT_REDIS_PREFIX}): servers with different prefixes share a Redis without sharing keys.`,
  },
} as const
