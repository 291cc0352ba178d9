import type { Corpus } from '@oqlkit/oqo-schema'
import type { Token } from './oql-lexer.ts'
import type { OperatorFamily, OperatorName, VerbNode } from './oql-syntax.ts'

// The word classes of OQL: which tokens are connectives, keywords, operators and verb phrases.
// Keywords are matched case-insensitively (tokens carry a lower-cased form).

export const isWord = (token: Token | undefined, ...words: readonly string[]): boolean =>
  token !== undefined && token.kind === 'word' && words.includes(token.lower)

export const CONNECTIVE_WORDS = ['and', '&', 'or'] as const
export const IT_WORDS = ['it', "it's", 'its'] as const
export const DIGITS = /^\d+$/

export const isConnective = (token: Token | undefined): boolean => isWord(token, ...CONNECTIVE_WORDS)
export const isAnd = (token: Token | undefined): boolean => isWord(token, 'and', '&')

/** Where a directive starts: `group by`, `sample` or a stray `;`. */
export const startsDirective = (tokens: readonly Token[], index: number): boolean => {
  const current = tokens[index]!
  return (
    current.kind === 'semicolon' ||
    isWord(current, 'sample') ||
    (isWord(current, 'group') && isWord(tokens[index + 1], 'by'))
  )
}

// Words that cannot be a bare value: they read as connectives, operators or directives.
export const RESERVED_VALUE_WORDS: ReadonlySet<string> = new Set([
  'and',
  '&',
  'or',
  'not',
  'is',
  'has',
  'where',
])
export const NULL_WORDS: ReadonlySet<string> = new Set(['unknown', 'null'])

export const isValueToken = (current: Token): boolean =>
  current.kind === 'string' || (current.kind === 'word' && !RESERVED_VALUE_WORDS.has(current.lower))

// Row-subject verb phrases (#557) and operators, as token-word alternatives, longest first.
export type WordPattern = readonly (readonly string[])[]

export const matchWords = (tokens: readonly Token[], index: number, pattern: WordPattern): boolean =>
  pattern.every((words, offset) => isWord(tokens[index + offset], ...words))

export const VERB_PHRASES: readonly {
  readonly pattern: WordPattern
  readonly columnId: VerbNode['columnId']
}[] = [
  { pattern: [['it'], ['cites']], columnId: 'referenced_works' },
  { pattern: [['it'], ['is'], ['cited'], ['by']], columnId: 'cited_by' },
  { pattern: [["it's", 'its'], ['cited'], ['by']], columnId: 'cited_by' },
  { pattern: [['it'], ['is'], ['related'], ['to']], columnId: 'related_to' },
  { pattern: [["it's", 'its'], ['related'], ['to']], columnId: 'related_to' },
]

export const verbPhraseAt = (tokens: readonly Token[], index: number) =>
  VERB_PHRASES.find(({ pattern }) => matchWords(tokens, index, pattern))

export interface OperatorPhrase {
  readonly pattern: WordPattern
  readonly family: OperatorFamily
  readonly name: OperatorName
  readonly negated: boolean
  /** `contains` was renamed `has` (#363): reported, then read as `has`. */
  readonly renamed?: true
}

export const OPERATOR_PHRASES: readonly OperatorPhrase[] = [
  {
    pattern: [['is'], ['not'], ['in'], ['collection']],
    family: 'list',
    name: 'in collection',
    negated: true,
  },
  { pattern: [['is'], ['in'], ['collection']], family: 'list', name: 'in collection', negated: false },
  { pattern: [['is'], ['not'], ['similar'], ['to']], family: 'semantic', name: 'similar to', negated: true },
  { pattern: [['is'], ['similar'], ['to']], family: 'semantic', name: 'similar to', negated: false },
  { pattern: [['is'], ['not']], family: 'list', name: 'is', negated: true },
  { pattern: [['is']], family: 'list', name: 'is', negated: false },
  { pattern: [['has']], family: 'search', name: 'has', negated: false },
  { pattern: [['does'], ['not'], ['have']], family: 'search', name: 'has', negated: true },
  { pattern: [["doesn't", 'doesnt'], ['have']], family: 'search', name: 'has', negated: true },
  {
    pattern: [['does'], ['not'], ['contain', 'contains']],
    family: 'search',
    name: 'has',
    negated: true,
    renamed: true,
  },
  {
    pattern: [
      ["doesn't", 'doesnt'],
      ['contain', 'contains'],
    ],
    family: 'search',
    name: 'has',
    negated: true,
    renamed: true,
  },
  { pattern: [['contains', 'contain']], family: 'search', name: 'has', negated: false, renamed: true },
  { pattern: [['>=']], family: 'comparison', name: '>=', negated: false },
  { pattern: [['<=']], family: 'comparison', name: '<=', negated: false },
  { pattern: [['>']], family: 'comparison', name: '>', negated: false },
  { pattern: [['<']], family: 'comparison', name: '<', negated: false },
]

/** The words an operator can start with, so a bare value is never read as one. */
export const OPERATOR_START_WORDS: ReadonlySet<string> = new Set(
  OPERATOR_PHRASES.flatMap(({ pattern }) => pattern[0] ?? []),
)

export const CORPUS_PHRASES: Readonly<Record<string, Corpus>> = {
  core: 'core',
  'core corpus': 'core',
  all: 'all',
  'all corpora': 'all',
  expansion: 'expansion',
  'expansion corpus': 'expansion',
  xpac: 'expansion',
  'xpac corpus': 'expansion',
}
