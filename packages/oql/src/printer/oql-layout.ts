import type {
  ClauseNode,
  ConditionNode,
  GroupNode,
  Join,
  ValueGroup,
  ValueLeaf,
  ValueNode,
} from './clause-tree.ts'
import { type OqlToken, SPACE, tokenWithAddr } from './oql-tokens.ts'

// Width-aware layout (OQL v2.2 §4.3), the "fits or explode" model: a node that fits on the rest of
// its line stays flat; otherwise its group opens with `(` at the end of the line, its items go one
// per line two columns deeper, each after the first led by its connective, and `)` closes at the
// node's own indent. More than 8 items that each fit are packed into full lines instead.
//
// The query is written once as one flat run of tokens (the one-line form), and every node remembers
// where its own tokens start and end in it. The layout then only measures and slices that run: a node
// that fits is its slice, and an exploded node's lines are slices of its children, so no level writes
// or measures a node's tokens again.

export interface LayoutContext {
  readonly width: number
}

export interface Line {
  readonly indent: number
  readonly tokens: readonly OqlToken[]
}

/** Where a node starts: its line's indent and what already stands on that line before it. */
export interface Start {
  readonly indent: number
  readonly prefix: readonly OqlToken[]
}

const PACK_THRESHOLD = 8

/** Width in characters (code points), as the reference counts them: a surrogate pair is one. */
export const textWidth = (text: string): number => {
  let count = text.length
  for (let index = 0; index < text.length - 1; index++) {
    const code = text.charCodeAt(index)
    if (code < 0xd800 || code > 0xdbff) continue
    const next = text.charCodeAt(index + 1)
    if (next >= 0xdc00 && next <= 0xdfff) {
      count -= 1
      index += 1
    }
  }
  return count
}

export const lineWidth = (indent: number, tokens: readonly OqlToken[]): number => {
  let width = indent
  for (const token of tokens) width += textWidth(token.text)
  return width
}

/** The text of tokens on one line. */
export const tokensText = (tokens: readonly OqlToken[]): string => {
  let text = ''
  for (const token of tokens) text += token.text
  return text
}

interface Span {
  readonly start: number
  readonly end: number
}

/**
 * The query's tokens on one line, with the width of every stretch of them and the span of each
 * condition and value node, by its address (an address names one node of the tree).
 */
export class TokenRun {
  readonly tokens: OqlToken[] = []
  // `#offsets[i]` is the width of the first i tokens.
  readonly #offsets: number[] = [0]
  readonly #spans = new Map<string, Span>()

  get length(): number {
    return this.tokens.length
  }

  push(token: OqlToken): void {
    this.tokens.push(token)
    this.#offsets.push(this.#offsets[this.#offsets.length - 1]! + textWidth(token.text))
  }

  /** The width of tokens `start` to `end` (exclusive). */
  width(start: number, end: number): number {
    return this.#offsets[end]! - this.#offsets[start]!
  }

  slice(start: number, end: number): OqlToken[] {
    return this.tokens.slice(start, end)
  }

  mark(addr: string, start: number): void {
    this.#spans.set(addr, { start, end: this.tokens.length })
  }

  /** Where the node at `addr` was written. */
  span(addr: string): Span {
    const span = this.#spans.get(addr)
    if (span === undefined) throw new Error(`no tokens were written for ${addr}`)
    return span
  }
}

const punctuation = (text: string, addr: string, path: string): OqlToken => ({
  text,
  role: 'punctuation',
  addr,
  path,
})

export const pushConnective = (run: TokenRun, join: Join, addr: string, path: string): void => {
  run.push({ text: join, role: 'connective', addr, path })
  run.push(SPACE)
}

const pushNot = (run: TokenRun, negated: boolean, addr: string, path: string): void => {
  if (!negated) return
  run.push({ text: 'not', role: 'keyword', addr, path })
  run.push(SPACE)
}

// --- the flat run ------------------------------------------------------------------------------

const pushLeaf = (run: TokenRun, leaf: ValueLeaf, addr: string): void => {
  pushNot(run, leaf.negated, addr, leaf.path)
  for (const token of leaf.parts) run.push(token.role === 'space' ? token : tokenWithAddr(token, addr))
}

/** The items of a value group at `${base}.1`, `${base}.2`, …, without its parentheses. */
const pushGroupItems = (run: TokenRun, group: ValueGroup, base: string, joinAddr: string): void => {
  group.items.forEach((item, index) => {
    if (index > 0) {
      run.push(SPACE)
      pushConnective(run, group.join, joinAddr, group.path)
    }
    pushValue(run, item, `${base}.${index + 1}`)
  })
}

/** A value as it stands among others: a nested group in parentheses. */
const pushValue = (run: TokenRun, value: ValueNode, addr: string): void => {
  const start = run.length
  if (value.kind === 'vleaf') pushLeaf(run, value, addr)
  else {
    run.push(punctuation('(', addr, value.path))
    pushGroupItems(run, value, addr, `${addr}.0`)
    run.push(punctuation(')', addr, value.path))
  }
  run.mark(addr, start)
}

const pushClauseHead = (run: TokenRun, clause: ClauseNode, addr: string): void => {
  pushNot(run, clause.negated, addr, clause.path)
  for (const token of clause.head)
    run.push(
      token.role === 'space' ? token : tokenWithAddr(token, token.role === 'operator' ? addr : `${addr}.0`),
    )
  run.push(SPACE)
  run.push(punctuation('(', addr, clause.path))
}

/** How many tokens the head of a clause has: `not`, the field and operator, and the opening `(`. */
const clauseHeadLength = (clause: ClauseNode): number => (clause.negated ? 2 : 0) + clause.head.length + 2

/** A condition on one line, a nested group in parentheses. A clause's own group holds its values at N.1, N.2, … (N.0 is its field), joined at N. */
export const pushCondition = (run: TokenRun, node: ConditionNode, addr: string): void => {
  const start = run.length
  if (node.kind === 'clause') {
    pushClauseHead(run, node, addr)
    if (node.value.kind === 'vleaf') pushLeaf(run, node.value, `${addr}.1`)
    else pushGroupItems(run, node.value, addr, addr)
    run.push(punctuation(')', addr, node.path))
  } else {
    pushNot(run, node.negated, addr, node.path)
    run.push(punctuation('(', addr, node.path))
    pushGroupChildren(run, node, addr)
    run.push(punctuation(')', addr, node.path))
  }
  run.mark(addr, start)
}

const pushGroupChildren = (run: TokenRun, group: GroupNode, addr: string): void => {
  group.children.forEach((child, index) => {
    if (index > 0) {
      run.push(SPACE)
      pushConnective(run, group.join, `${addr}.0`, group.path)
    }
    pushCondition(run, child, `${addr}.${index + 1}`)
  })
}

// --- layout -----------------------------------------------------------------------------------

const prefixWidth = (start: Start): number => lineWidth(start.indent, start.prefix)

const onLine = (start: Start, tokens: readonly OqlToken[]): Line => ({
  indent: start.indent,
  tokens: start.prefix.length === 0 ? tokens : [...start.prefix, ...tokens],
})

/** The connective (and its space) written before the node that starts at `start`. */
const leadBefore = (run: TokenRun, start: number): OqlToken[] => run.slice(start - 2, start)

/** Where an item of a group starts in the run with its leading connective (the item's two tokens before it). */
const pieceStart = (spans: readonly Span[], index: number): number =>
  spans[index]!.start - (index === 0 ? 0 : 2)

/** Items of an exploded group, at `indent`: packed into full lines when there are many small ones. */
const layoutValueItems = (
  context: LayoutContext,
  run: TokenRun,
  group: ValueGroup,
  indent: number,
  base: string,
): Line[] => {
  const spans = group.items.map((_, index) => run.span(`${base}.${index + 1}`))
  // Each item after the first is led by its connective: the two tokens before it in the run.
  const packable =
    group.items.length > PACK_THRESHOLD &&
    spans.every((span, index) => indent + run.width(pieceStart(spans, index), span.end) <= context.width)
  if (!packable) {
    const lines: Line[] = []
    group.items.forEach((item, index) => {
      const span = spans[index]!
      const prefix = index === 0 ? [] : leadBefore(run, span.start)
      lines.push(...layoutValue(context, run, item, `${base}.${index + 1}`, { indent, prefix }))
    })
    return lines
  }
  const lines: Line[] = []
  let current: OqlToken[] = []
  let currentWidth = indent
  spans.forEach((span, index) => {
    const start = pieceStart(spans, index)
    const width = run.width(start, span.end)
    if (current.length > 0 && currentWidth + SPACE.text.length + width > context.width) {
      lines.push({ indent, tokens: current })
      current = []
      currentWidth = indent
    }
    if (current.length > 0) {
      current.push(SPACE)
      currentWidth += SPACE.text.length
    }
    for (let position = start; position < span.end; position++) current.push(run.tokens[position]!)
    currentWidth += width
  })
  if (current.length > 0) lines.push({ indent, tokens: current })
  return lines
}

const layoutValue = (
  context: LayoutContext,
  run: TokenRun,
  value: ValueNode,
  addr: string,
  start: Start,
): Line[] => {
  const span = run.span(addr)
  // A single value cannot break: when it does not fit, the line runs over the width.
  if (value.kind === 'vleaf' || prefixWidth(start) + run.width(span.start, span.end) <= context.width)
    return [onLine(start, run.slice(span.start, span.end))]
  return [
    onLine(start, [run.tokens[span.start]!]),
    ...layoutValueItems(context, run, value, start.indent + 2, addr),
    { indent: start.indent, tokens: [run.tokens[span.end - 1]!] },
  ]
}

/**
 * A condition starting at `start`; `indent` is the condition's own indent, where its closing `)` goes
 * (the first condition after `works where ` starts at column 0 but belongs at indent 2).
 */
export const layoutCondition = (
  context: LayoutContext,
  run: TokenRun,
  node: ConditionNode,
  addr: string,
  start: Start,
  indent: number,
): Line[] => {
  const span = run.span(addr)
  const fits = prefixWidth(start) + run.width(span.start, span.end) <= context.width
  // A clause with a single value cannot break either.
  if (fits || (node.kind === 'clause' && node.value.kind === 'vleaf'))
    return [onLine(start, run.slice(span.start, span.end))]
  const close: Line = { indent, tokens: [run.tokens[span.end - 1]!] }
  if (node.kind === 'clause')
    return [
      onLine(start, run.slice(span.start, span.start + clauseHeadLength(node))),
      ...layoutValueItems(context, run, node.value as ValueGroup, indent + 2, addr),
      close,
    ]
  const lines: Line[] = [onLine(start, run.slice(span.start, span.start + (node.negated ? 3 : 1)))]
  node.children.forEach((child, index) => {
    const childAddr = `${addr}.${index + 1}`
    const prefix = index === 0 ? [] : leadBefore(run, run.span(childAddr).start)
    lines.push(...layoutCondition(context, run, child, childAddr, { indent: indent + 2, prefix }, indent + 2))
  })
  lines.push(close)
  return lines
}
