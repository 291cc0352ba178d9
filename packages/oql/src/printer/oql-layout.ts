import type {
  ClauseNode,
  ConditionNode,
  GroupNode,
  Join,
  ValueGroup,
  ValueLeaf,
  ValueNode,
} from './clause-tree.ts'
import { type OqlToken, SPACE } from './oql-tokens.ts'

// Width-aware layout (OQL v2.2 §4.3), the "fits or explode" model: a node that fits on the rest of
// its line stays flat; otherwise its group opens with `(` at the end of the line, its items go one
// per line two columns deeper, each after the first led by its connective, and `)` closes at the
// node's own indent. More than 8 items that each fit are packed into full lines instead.

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

/** Width in characters (code points), as the reference counts them. */
const textWidth = (text: string): number => {
  let count = 0
  for (const _ of text) count += 1
  return count
}

export const lineWidth = (indent: number, tokens: readonly OqlToken[]): number =>
  tokens.reduce((width, token) => width + textWidth(token.text), indent)

const punctuation = (text: string, addr: string, path: string): OqlToken => ({
  text,
  role: 'punctuation',
  addr,
  path,
})

export const connective = (join: Join, addr: string, path: string): OqlToken[] => [
  { text: join, role: 'connective', addr, path },
  SPACE,
]

const notTokens = (negated: boolean, addr: string, path: string): OqlToken[] =>
  negated ? [{ text: 'not', role: 'keyword', addr, path }, SPACE] : []

const at = (tokens: readonly OqlToken[], addr: string): OqlToken[] =>
  tokens.map((token) => (token.role === 'space' ? token : { ...token, addr }))

// --- flat tokens -------------------------------------------------------------------------------

const leafTokens = (leaf: ValueLeaf, addr: string): OqlToken[] => [
  ...notTokens(leaf.negated, addr, leaf.path),
  ...at(leaf.parts, addr),
]

/** The items of a value group, without its parentheses. */
const groupItemTokens = (group: ValueGroup, itemAddr: (index: number) => string, joinAddr: string) =>
  group.items.flatMap((item, index) => [
    ...(index === 0 ? [] : [SPACE, ...connective(group.join, joinAddr, group.path)]),
    ...valueTokens(item, itemAddr(index)),
  ])

/** A value as it stands among others: a nested group in parentheses. */
const valueTokens = (value: ValueNode, addr: string): OqlToken[] =>
  value.kind === 'vleaf'
    ? leafTokens(value, addr)
    : [
        punctuation('(', addr, value.path),
        ...groupItemTokens(value, (index) => `${addr}.${index + 1}`, `${addr}.0`),
        punctuation(')', addr, value.path),
      ]

const clauseHead = (clause: ClauseNode, addr: string): OqlToken[] => [
  ...notTokens(clause.negated, addr, clause.path),
  ...clause.head.map((token) =>
    token.role === 'space' ? token : { ...token, addr: token.role === 'operator' ? addr : `${addr}.0` },
  ),
  SPACE,
  punctuation('(', addr, clause.path),
]

// A clause's own group holds its values at N.1, N.2, … (N.0 is its field), joined at N.
const clauseValueTokens = (clause: ClauseNode, addr: string): OqlToken[] =>
  clause.value.kind === 'vleaf'
    ? leafTokens(clause.value, `${addr}.1`)
    : groupItemTokens(clause.value, (index) => `${addr}.${index + 1}`, addr)

const groupChildTokens = (group: GroupNode, addr: string): OqlToken[] =>
  group.children.flatMap((child, index) => [
    ...(index === 0 ? [] : [SPACE, ...connective(group.join, `${addr}.0`, group.path)]),
    ...conditionTokens(child, `${addr}.${index + 1}`),
  ])

/** A condition on one line; a nested group in parentheses. */
export const conditionTokens = (node: ConditionNode, addr: string): OqlToken[] =>
  node.kind === 'clause'
    ? [...clauseHead(node, addr), ...clauseValueTokens(node, addr), punctuation(')', addr, node.path)]
    : [
        ...notTokens(node.negated, addr, node.path),
        punctuation('(', addr, node.path),
        ...groupChildTokens(node, addr),
        punctuation(')', addr, node.path),
      ]

// --- layout -----------------------------------------------------------------------------------

const fitsFlat = (context: LayoutContext, start: Start, tokens: readonly OqlToken[]): Line | undefined => {
  const line = [...start.prefix, ...tokens]
  return lineWidth(start.indent, line) <= context.width ? { indent: start.indent, tokens: line } : undefined
}

/** Items of an exploded group, at `indent`: packed into full lines when there are many small ones. */
const layoutValueItems = (
  context: LayoutContext,
  group: ValueGroup,
  indent: number,
  itemAddr: (index: number) => string,
  joinAddr: string,
): Line[] => {
  const leads = group.items.map((_, index) =>
    index === 0 ? [] : connective(group.join, joinAddr, group.path),
  )
  const pieces = group.items.map((item, index) => [...leads[index]!, ...valueTokens(item, itemAddr(index))])
  const packable =
    group.items.length > PACK_THRESHOLD && pieces.every((piece) => lineWidth(indent, piece) <= context.width)
  if (!packable)
    return group.items.flatMap((item, index) =>
      layoutValue(context, item, itemAddr(index), { indent, prefix: leads[index]! }),
    )
  const lines: Line[] = []
  let current: OqlToken[] = []
  for (const piece of pieces) {
    if (current.length > 0 && lineWidth(indent, [...current, SPACE, ...piece]) > context.width) {
      lines.push({ indent, tokens: current })
      current = []
    }
    current = current.length === 0 ? [...piece] : [...current, SPACE, ...piece]
  }
  if (current.length > 0) lines.push({ indent, tokens: current })
  return lines
}

const layoutValue = (context: LayoutContext, value: ValueNode, addr: string, start: Start): Line[] => {
  const tokens = valueTokens(value, addr)
  const flat = fitsFlat(context, start, tokens)
  if (flat !== undefined) return [flat]
  // A single value cannot break: the line runs over the width.
  if (value.kind === 'vleaf') return [{ indent: start.indent, tokens: [...start.prefix, ...tokens] }]
  return [
    { indent: start.indent, tokens: [...start.prefix, punctuation('(', addr, value.path)] },
    ...layoutValueItems(context, value, start.indent + 2, (index) => `${addr}.${index + 1}`, `${addr}.0`),
    { indent: start.indent, tokens: [punctuation(')', addr, value.path)] },
  ]
}

/**
 * A condition starting at `start`; `indent` is the condition's own indent, where its closing `)` goes
 * (the first condition after `works where ` starts at column 0 but belongs at indent 2).
 */
export const layoutCondition = (
  context: LayoutContext,
  node: ConditionNode,
  addr: string,
  start: Start,
  indent: number,
): Line[] => {
  const flatTokens = conditionTokens(node, addr)
  const flat = fitsFlat(context, start, flatTokens)
  if (flat !== undefined) return [flat]
  if (node.kind === 'clause') {
    // A single value cannot break: the line runs over the width.
    if (node.value.kind === 'vleaf')
      return [{ indent: start.indent, tokens: [...start.prefix, ...flatTokens] }]
    return [
      { indent: start.indent, tokens: [...start.prefix, ...clauseHead(node, addr)] },
      ...layoutValueItems(context, node.value, indent + 2, (index) => `${addr}.${index + 1}`, addr),
      { indent, tokens: [punctuation(')', addr, node.path)] },
    ]
  }
  return [
    {
      indent: start.indent,
      tokens: [
        ...start.prefix,
        ...notTokens(node.negated, addr, node.path),
        punctuation('(', addr, node.path),
      ],
    },
    ...node.children.flatMap((child, index) =>
      layoutCondition(
        context,
        child,
        `${addr}.${index + 1}`,
        { indent: indent + 2, prefix: index === 0 ? [] : connective(node.join, `${addr}.0`, node.path) },
        indent + 2,
      ),
    ),
    { indent, tokens: [punctuation(')', addr, node.path)] },
  ]
}
