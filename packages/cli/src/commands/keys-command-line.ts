// `oqlkit keys`'s command line: each action's options, what the parser reads and `--help` prints
// (command-line-parser.ts).
import type { CommandLine } from './command-line-parser.ts'
import { STATE_DIR_NAME, STORE_OPTIONS } from './store-options.ts'

export const USD = 'an amount of US dollars such as 2.50'

const MUTABLE_GRANT = {
  'daily-budget-usd': {
    type: 'string',
    value: USD,
    placeholder: 'N',
    help: "The key's daily budget in US dollars (create, update; default the server's; update takes default to go back to it).",
  },
  'prepaid-usd': {
    type: 'string',
    value: USD,
    placeholder: 'N',
    help: 'A prepaid balance in US dollars, spent once the daily budget is (create, update).',
  },
  'prepaid-expires-at': {
    type: 'string',
    value: 'an ISO 8601 time such as 2031-01-01T00:00:00Z',
    placeholder: 'ISO-TIME',
    help: 'When the prepaid balance expires (create, update; update takes never).',
  },
} as const
const WHICH_KEY = {
  'key-id': {
    type: 'string',
    value: 'the id `oqlkit keys list` shows (12 hex digits, or the whole hash)',
    placeholder: 'ID',
    help: 'The key, by the id `keys list` shows (revoke, update).',
  },
  key: {
    type: 'string',
    value: 'the key itself',
    placeholder: 'KEY',
    help: 'The key, by itself (revoke, update).',
  },
} as const

/** The options of each action (the store's are added to each). */
export const KEY_ACTIONS = {
  create: {
    user: {
      type: 'string',
      value: 'a user id',
      placeholder: 'ID',
      help: "The key's user (create; required).",
    },
    admin: { type: 'boolean', help: 'An admin key, which may manage every collection (create).' },
    ...MUTABLE_GRANT,
  },
  list: {
    format: {
      type: 'string',
      value: 'table or json',
      placeholder: 'table|json',
      help: 'How keys are listed (list; default table).',
    },
  },
  revoke: WHICH_KEY,
  update: { ...WHICH_KEY, ...MUTABLE_GRANT },
} as const

const STORE = '[--state DIR | --redis URL [--redis-prefix P]]'

export const KEYS_COMMAND_LINE = {
  synopsis: [
    `oqlkit keys create --user <id> [--admin] [--daily-budget-usd N] [--prepaid-usd N] [--prepaid-expires-at ISO-TIME] ${STORE}`,
    `       oqlkit keys list [--format table|json] ${STORE}`,
    `       oqlkit keys revoke (--key-id ID | --key KEY) ${STORE}`,
    `       oqlkit keys update (--key-id ID | --key KEY) [--daily-budget-usd N|default] [--prepaid-usd N] [--prepaid-expires-at ISO-TIME|never] ${STORE}`,
  ].join('\n'),
  options: { ...KEY_ACTIONS.create, ...KEY_ACTIONS.list, ...WHICH_KEY, ...STORE_OPTIONS },
  notes: [
    `A key is printed once, at create; the store (default ${STATE_DIR_NAME}) holds only its SHA-256. A running server sees every change on the key's next use, with no restart.`,
  ],
} as const satisfies CommandLine
