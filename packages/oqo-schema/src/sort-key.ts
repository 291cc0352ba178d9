import type { BranchFilter, Filter, LeafFilter } from './oqo.generated.ts'

// The sorted canonical form orders operands by their JSON text the way the reference engine does
// (Python's `json.dumps(…, sort_keys=True, ensure_ascii=True)`), so that our sorted OQOs and the
// corpus's canonical OQL list operands in the same order. Sorting runs several times per translation,
// so `compareSortOperands` decides the order of two texts from the operands themselves wherever it can
// (it nearly always can), and writes a key text (`leafSortKey`, `branchSortKey`) only where it cannot.

// Printable ASCII without `"` and `\`: such a string is its own JSON text between quotes.
const PLAIN_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/

const escapeString = (text: string): string => {
  if (PLAIN_TEXT.test(text)) return `"${text}"`
  let out = '"'
  for (const char of text) {
    const code = char.codePointAt(0)!
    if (char === '"') out += '\\"'
    else if (char === '\\') out += '\\\\'
    else if (char === '\n') out += '\\n'
    else if (char === '\r') out += '\\r'
    else if (char === '\t') out += '\\t'
    else if (char === '\b') out += '\\b'
    else if (char === '\f') out += '\\f'
    else if (code < 0x20 || (code > 0x7e && code <= 0xffff)) out += `\\u${code.toString(16).padStart(4, '0')}`
    else if (code > 0xffff) {
      // Outside the BMP: a surrogate pair, as Python writes it.
      const high = Math.floor((code - 0x10000) / 0x400) + 0xd800
      const low = ((code - 0x10000) % 0x400) + 0xdc00
      out += `\\u${high.toString(16)}\\u${low.toString(16)}`
    } else out += char
  }
  return `${out}"`
}

const scalarJson = (value: unknown): string => {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string') return escapeString(value)
  return objectJson(value)
}

// Only reached for values an invalid OQO smuggles into a leaf; written as Python would write them.
const objectJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(scalarJson).join(', ')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => compareText(a, b))
  return `{${entries.map(([key, item]) => `${escapeString(key)}: ${scalarJson(item)}`).join(', ')}}`
}

/** Comparison operators sort as "0" to "3", so a lower bound comes before an upper bound. */
export const OPERATOR_SORT_NAMES: Readonly<Record<string, string>> = {
  '>': '0',
  '>=': '1',
  '<': '2',
  '<=': '3',
}

// The JSON text of each operator's sort name, worked out once.
const OPERATOR_KEY_TEXT: ReadonlyMap<unknown, string> = new Map(
  ['<', '<=', '>', '>=', 'has', 'in collection', 'is'].map((operator) => [
    operator,
    escapeString(OPERATOR_SORT_NAMES[operator] ?? operator),
  ]),
)

const operatorKeyText = (operator: unknown): string =>
  OPERATOR_KEY_TEXT.get(operator) ??
  scalarJson(OPERATOR_SORT_NAMES[operator as string] ?? (operator as string | null))

/**
 * The sort key of a leaf: the Python JSON text of `{column_id, is_negated, operator, value}` with the
 * comparison operators renamed (see `OPERATOR_SORT_NAMES`) and absent members left out.
 */
export const leafSortKey = (leaf: LeafFilter): string => {
  // Members in key order; each after the first is led by ", ".
  let key = ''
  if (leaf.column_id !== undefined) key = `"column_id": ${scalarJson(leaf.column_id)}`
  if (leaf.is_negated !== undefined)
    key += `${key === '' ? '' : ', '}"is_negated": ${scalarJson(leaf.is_negated)}`
  if (leaf.operator !== undefined)
    key += `${key === '' ? '' : ', '}"operator": ${operatorKeyText(leaf.operator)}`
  if (leaf.value !== undefined) key += `${key === '' ? '' : ', '}"value": ${scalarJson(leaf.value)}`
  return `{${key}}`
}

/** The sort key of a branch, from the keys of its (already sorted) children: `{filters, join}`. */
export const branchSortKey = (
  join: BranchFilter['join'] | undefined,
  childKeys: readonly string[],
): string =>
  join === undefined
    ? `{"filters": [${childKeys.join(', ')}]}`
    : `{"filters": [${childKeys.join(', ')}], "join": ${scalarJson(join)}}`

export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * An operand being sorted: a leaf, or a branch with its children already sorted. Its key text is
 * written only when a comparison needs it: most comparisons are decided from the operands themselves
 * (below), which spares writing and comparing a long text per operand.
 */
export interface SortOperand {
  readonly filter: Filter
  /** A branch's sorted children; undefined for a leaf. */
  readonly children: readonly SortOperand[] | undefined
  key: string | undefined
}

export const sortOperandKey = (operand: SortOperand): string => {
  if (operand.key === undefined)
    operand.key =
      operand.children === undefined
        ? leafSortKey(operand.filter as LeafFilter)
        : branchSortKey((operand.filter as BranchFilter).join, operand.children.map(sortOperandKey))
  return operand.key
}

const QUOTE_CODE = 0x22
const BACKSLASH_CODE = 0x5c
const CLOSE_BRACE_CODE = 0x7d

/**
 * How two different numbers' texts compare, each followed by the leaf's closing `}` (a number's text
 * never holds a `}`, so where one text ends the brace meets a character of the other).
 */
const compareNumberTexts = (x: string, y: string): number => {
  const length = Math.min(x.length, y.length)
  for (let index = 0; index < length; index++) {
    const difference = x.charCodeAt(index) - y.charCodeAt(index)
    if (difference !== 0) return difference < 0 ? -1 : 1
  }
  if (x.length === y.length) return 0
  return x.length < y.length
    ? CLOSE_BRACE_CODE < y.charCodeAt(length)
      ? -1
      : 1
    : x.charCodeAt(length) < CLOSE_BRACE_CODE
      ? -1
      : 1
}

const isPrintable = (code: number): boolean => code >= 0x20 && code <= 0x7e

// The first character a character is written with in a JSON string: `\` for every escaped one.
const leadCode = (code: number): number =>
  isPrintable(code) && code !== QUOTE_CODE && code !== BACKSLASH_CODE ? code : BACKSLASH_CODE

/**
 * How two different strings' JSON texts compare, from the strings: escaping is character by
 * character, so the first character where they differ decides (or, where one string ends, its closing
 * quote against the other's next character). Only a difference between characters that are not both
 * printable ASCII needs the escaped texts themselves.
 */
const compareJsonStrings = (a: string, b: string): number => {
  const length = Math.min(a.length, b.length)
  for (let index = 0; index < length; index++) {
    const codeA = a.charCodeAt(index)
    const codeB = b.charCodeAt(index)
    if (codeA === codeB) continue
    if (!isPrintable(codeA) || !isPrintable(codeB)) return compareText(escapeString(a), escapeString(b))
    const leadA = leadCode(codeA)
    const leadB = leadCode(codeB)
    // Both escaped (one is `"`, the other `\`): the escaped characters come second.
    if (leadA === leadB) return codeA < codeB ? -1 : 1
    return leadA < leadB ? -1 : 1
  }
  if (a.length === b.length) return 0
  return a.length < b.length
    ? QUOTE_CODE < leadCode(b.charCodeAt(length))
      ? -1
      : 1
    : leadCode(a.charCodeAt(length)) < QUOTE_CODE
      ? -1
      : 1
}

// The first character of a scalar's JSON text: for values of different types it decides.
const firstJsonCode = (value: unknown): number =>
  typeof value === 'string' ? QUOTE_CODE : scalarJson(value).charCodeAt(0)

const isScalar = (value: unknown): boolean =>
  value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number'

/** The order of two different values' texts, each followed by the leaf's closing `}`; NaN when undecided here. */
const compareValues = (a: unknown, b: unknown): number => {
  if (!isScalar(a) || !isScalar(b)) return Number.NaN
  if (typeof a === 'string' && typeof b === 'string') return compareJsonStrings(a, b)
  if (typeof a === 'number' && typeof b === 'number')
    return Number.isFinite(a) && Number.isFinite(b) ? compareNumberTexts(String(a), String(b)) : Number.NaN
  if (typeof a === 'boolean' && typeof b === 'boolean') return a ? 1 : -1 // "false" before "true"
  // Values of different types: their texts start with different characters.
  const difference = firstJsonCode(a) - firstJsonCode(b)
  return difference === 0 ? Number.NaN : difference < 0 ? -1 : 1
}

const isOptionalBoolean = (value: unknown): boolean => value === undefined || typeof value === 'boolean'

/**
 * The order of two leaves' keys from their members (column_id, is_negated, operator, value, in that
 * order in the text): the first member that differs decides; a member present on one leaf only puts
 * that leaf first (its name sorts before the next member's, and `,` before `}`). NaN when undecided here.
 */
const compareLeaves = (a: LeafFilter, b: LeafFilter): number => {
  if (a.column_id !== b.column_id) {
    if (typeof a.column_id !== 'string' || typeof b.column_id !== 'string') return Number.NaN
    return compareJsonStrings(a.column_id, b.column_id)
  }
  if (typeof a.column_id !== 'string') return Number.NaN
  if (a.is_negated !== b.is_negated) {
    if (!isOptionalBoolean(a.is_negated) || !isOptionalBoolean(b.is_negated)) return Number.NaN
    if (a.is_negated === undefined) return 1
    if (b.is_negated === undefined) return -1
    return a.is_negated ? 1 : -1 // "false" before "true"
  }
  if (a.operator !== b.operator) {
    if (a.operator === undefined) return OPERATOR_KEY_TEXT.has(b.operator) ? 1 : Number.NaN
    if (b.operator === undefined) return OPERATOR_KEY_TEXT.has(a.operator) ? -1 : Number.NaN
    const textA = OPERATOR_KEY_TEXT.get(a.operator)
    const textB = OPERATOR_KEY_TEXT.get(b.operator)
    return textA === undefined || textB === undefined ? Number.NaN : compareText(textA, textB)
  }
  if (a.value === b.value) return 0
  if (a.value === undefined || b.value === undefined) return Number.NaN
  return compareValues(a.value, b.value)
}

/**
 * The order of two branches' keys, `{"filters": [children…], "join": …}`: child by child (a child's
 * key is a whole JSON object, so different children decide), then the longer list first (`,` before
 * `]`) unless the shorter one is empty (`]` before `{`), then the join. NaN when undecided here.
 */
const compareBranches = (a: SortOperand, b: SortOperand): number => {
  const joinA: unknown = (a.filter as BranchFilter).join
  const joinB: unknown = (b.filter as BranchFilter).join
  if (typeof joinA !== 'string' || typeof joinB !== 'string') return Number.NaN
  const childrenA = a.children!
  const childrenB = b.children!
  const length = Math.min(childrenA.length, childrenB.length)
  for (let index = 0; index < length; index++) {
    const order = compareSortOperands(childrenA[index]!, childrenB[index]!)
    if (order !== 0) return order
  }
  if (childrenA.length !== childrenB.length) {
    const aFirst = length === 0 ? childrenA.length === 0 : childrenA.length > childrenB.length
    return aFirst ? -1 : 1
  }
  return joinA === joinB ? 0 : compareJsonStrings(joinA, joinB)
}

const fastOrder = (a: SortOperand, b: SortOperand): number => {
  if (a.children === undefined)
    return b.children === undefined
      ? compareLeaves(a.filter as LeafFilter, b.filter as LeafFilter)
      : // `{"column_id"…` before `{"filters"…`
        (a.filter as LeafFilter).column_id !== undefined
        ? -1
        : Number.NaN
  if (b.children === undefined) return (b.filter as LeafFilter).column_id !== undefined ? 1 : Number.NaN
  return compareBranches(a, b)
}

/** Compares two operands as their key texts compare, writing the texts only when it must. */
export const compareSortOperands = (a: SortOperand, b: SortOperand): number => {
  const order = fastOrder(a, b)
  return Number.isNaN(order) ? compareText(sortOperandKey(a), sortOperandKey(b)) : order
}
