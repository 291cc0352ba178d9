import type { LeafFilter } from '@oqlkit/oqo-schema'

// The editor's view of printed OQL (the `oql_render_v2` of the translate response). The reference's
// exact shape is not public, so this is our own: the printed text as lines of typed tokens.
//
//   tree.lines[i].indent        the spaces that open the line (0, 2, 4, …)
//   tree.lines[i].tokens        the rest of the line, spaces included, in order
//
// `renderTreeText(tree)` (each line's indent spaces, then its tokens' texts, lines joined by "\n") is
// exactly `printOql` of the same OQO and options, so an editor can colour, hover and map the text
// back to the OQO without re-parsing it. Each token says what it is (`role`) and where it comes from:
//
// - `path`: a JSON Pointer into the OQO given to the printer (`/filter_rows/2/filters/0`). Values,
//   their `not` and annotations point at their leaf; a clause's field and operator at the leaf or
//   branch it prints (the first one when same-field siblings merged: see `paths`); connectives and
//   parentheses at the branch whose join they print (`/filter_rows` for the top level).
// - `paths`: on field tokens, every OQO node merged into the clause.
// - `columnId` (field and value tokens) and `value` (value tokens): the leaf's column and raw value.
// - `addr`: the decimal address of the corpus's `addr` listings: top-level conditions are 1, 2, …
//   (their connectives 0); in a clause N the field is N.0, the operator N, the values N.1, N.2, …;
//   a nested group at A has its items at A.1, A.2, … and its connectives at A.0.

export type OqlTokenRole =
  | 'entity'
  | 'corpus'
  | 'keyword'
  | 'field'
  | 'verb'
  | 'operator'
  | 'value'
  | 'annotation'
  | 'connective'
  | 'punctuation'
  | 'space'

export interface OqlToken {
  readonly text: string
  readonly role: OqlTokenRole
  readonly path?: string
  readonly paths?: readonly string[]
  readonly columnId?: string
  readonly value?: LeafFilter['value']
  readonly addr?: string
}

export interface OqlRenderLine {
  readonly indent: number
  readonly tokens: readonly OqlToken[]
}

export interface OqlRenderTree {
  readonly lines: readonly OqlRenderLine[]
}

export const SPACE: OqlToken = { text: ' ', role: 'space' }

export const lineText = (line: OqlRenderLine): string => {
  let text = ' '.repeat(line.indent)
  for (const token of line.tokens) text += token.text
  return text
}

/** The text the tree renders: what `printOql` returns for the same OQO and options. */
export const renderTreeText = (tree: OqlRenderTree): string => {
  let text = ''
  tree.lines.forEach((line, index) => {
    text += index === 0 ? lineText(line) : `\n${lineText(line)}`
  })
  return text
}

type TokenDraft = { -readonly [K in keyof OqlToken]: OqlToken[K] }

// Adding a member to a spread copy (`{ ...token, addr }`) is very slow in V8 (over a microsecond in
// Node 20), and the printer copies nearly every token it prints, so copies are built member by member.
// The printer creates its tokens with their members in this order (text, role, columnId, value, path,
// paths, addr), so a copy has the members, and the order, that the spread would give.
const copyToken = (token: OqlToken): TokenDraft => {
  const copy: TokenDraft = { text: token.text, role: token.role }
  if (token.columnId !== undefined) copy.columnId = token.columnId
  if (token.value !== undefined) copy.value = token.value
  return copy
}

/** The token pointing at `path` instead. */
export const tokenWithPath = (token: OqlToken, path: string): OqlToken => {
  const copy = copyToken(token)
  copy.path = path
  if (token.paths !== undefined) copy.paths = token.paths
  if (token.addr !== undefined) copy.addr = token.addr
  return copy
}

/** The token with the OQO nodes merged into its clause. */
export const tokenWithPaths = (token: OqlToken, paths: readonly string[]): OqlToken => {
  const copy = copyToken(token)
  if (token.path !== undefined) copy.path = token.path
  copy.paths = paths
  if (token.addr !== undefined) copy.addr = token.addr
  return copy
}

/** The token at its address. */
export const tokenWithAddr = (token: OqlToken, addr: string): OqlToken => {
  const copy = copyToken(token)
  if (token.path !== undefined) copy.path = token.path
  if (token.paths !== undefined) copy.paths = token.paths
  copy.addr = addr
  return copy
}
