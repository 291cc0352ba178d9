import {
  COLLECTION_ID,
  type EntityType,
  type Filter,
  type LeafFilter,
  propertiesRegistry,
} from '@oqlkit/oqo-schema'
import type { FieldTarget } from './field-index.ts'
import { operatorText } from './field-operators.ts'
import type { ClauseContext, LoweringScope } from './lowering-scope.ts'
import {
  type OneValueRule,
  writeBadBoolValueMessage,
  writeBadCollectionRefMessage,
  writeBadDateMessage,
  writeBadNumberMessage,
  writeMissingEntityIdMessage,
  writeMissingValueMessage,
  writeOneValueOnlyMessage,
  writeRangeLiteralMessage,
  writeUnknownComparedMessage,
} from './oql-message-writers.ts'
import type { BranchNode, MissingNode, NullNode, ScalarNode, ValueNode } from './oql-syntax.ts'

// The values of `is`, comparisons and collections become typed OQO values by the kind of their field
// (§3.6): numbers (whole unless the field takes decimals), calendar dates (and date-times where the
// column holds them), yes/no values folded with the negation, codes re-cased, collection ids kept as
// written. A value that does not fit is reported here, with the field's word, and gives no filter.

const INTEGER = /^\+?\d+$/
const DECIMAL = /^\+?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
const RANGE = /^(?:\d+(?:\.\d+)?-(?:\d+(?:\.\d+)?)?|-\d+(?:\.\d+)?)$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const BOOLEAN = /^(true|false)$/i

// Date-time columns (`updated_date`, `from_updated_date`) also take an ISO 8601 date-time.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/
const isDateTime = (text: string): boolean => DATE_TIME.test(text) && isCalendarDate(text.slice(0, 10))
const isDateTimeColumn = (entity: EntityType, columnId: string): boolean =>
  propertiesRegistry.resolveColumn(entity, columnId)?.kind === 'datetime'

const isCalendarDate = (text: string): boolean => {
  const match = DATE.exec(text)
  if (match === null) return false
  const [, year, month, day] = match.map(Number) as [number, number, number, number]
  if (month < 1 || month > 12 || day < 1) return false
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/** Comparisons, yes/no fields and collections take exactly one value (§3.6). */
export const takesOneValue = ({ operator, target }: ClauseContext): boolean =>
  operator.family !== 'list' || operator.name === 'in collection' || target.kind === 'bool'

/** The first branch of a value tree under its groups, prefixes and bare wrapper: several values. */
export const firstBranch = (node: ValueNode): BranchNode<ValueNode> | undefined => {
  for (let current = node; ; ) {
    if (current.kind === 'branch') return current
    if (current.kind === 'group') current = current.inner
    else if (current.kind === 'not') current = current.operand
    else if (current.kind === 'bare') current = current.item
    else return undefined
  }
}

/** Reports a ( … ) of several values where the clause takes one (see `takesOneValue`). */
export const reportOneValueOnly = (
  branch: BranchNode<ValueNode>,
  context: ClauseContext,
  scope: LoweringScope,
): undefined => {
  const { operator, target, word } = context
  // The operator family decides before the field: a comparison is never on a yes/no field, and only
  // a search field takes `is similar to`.
  const rule: OneValueRule =
    operator.family === 'comparison'
      ? 'comparison'
      : operator.name === 'in collection'
        ? 'collection'
        : target.kind === 'bool'
          ? 'yes/no'
          : 'similarity'
  return scope.report(
    'OQL_GROUP_NEEDS_ONE_VALUE',
    branch.connectives[0] ?? branch.span,
    writeOneValueOnlyMessage(rule, word, operatorText(operator)),
  )
}

/** A value left out, or only an annotation where an id should be. */
export const reportMissingValue = (
  node: MissingNode,
  context: ClauseContext,
  scope: LoweringScope,
): undefined => {
  const { target, operator, word } = context
  if (node.annotation !== undefined && (target.kind === 'id' || target.rowSubject))
    return scope.report('OQL_MISSING_ENTITY_ID', node.annotation, writeMissingEntityIdMessage(word))
  if (target.kind === 'bool' && operator.family === 'list')
    return scope.report('OQL_BAD_BOOL_VALUE', node.span, writeBadBoolValueMessage(word))
  return scope.report(
    'OQL_MISSING_VALUE',
    node.span,
    writeMissingValueMessage(word, operatorText(operator), target.kind),
  )
}

/**
 * One value as the OQO leaf of its clause, typed by the kind of field; undefined, with the problem
 * reported, when it does not fit.
 */
export const typeValue = (
  node: ScalarNode | NullNode,
  negated: boolean,
  context: ClauseContext,
  scope: LoweringScope,
): Filter | undefined => {
  const { operator, target, word } = context
  const text = node.kind === 'scalar' ? node.text : undefined
  if (operator.name === 'in collection') {
    if (text === undefined || !COLLECTION_ID.test(text))
      return scope.report('OQL_BAD_COLLECTION_REF', node.span, writeBadCollectionRefMessage(text, word))
    return scope.leaf(
      { column_id: target.columnId, value: text, operator: 'in collection' },
      negated,
      node.span,
      context,
    )
  }
  const comparison = operator.family === 'comparison' ? (operator.name as LeafFilter['operator']) : undefined
  if (text === undefined) {
    if (comparison !== undefined)
      return scope.report(
        target.kind === 'date' ? 'OQL_BAD_DATE' : 'OQL_BAD_NUMBER',
        node.span,
        writeUnknownComparedMessage(operator.name, word, target.kind),
      )
    return scope.leaf({ column_id: target.columnId, value: null }, negated, node.span, context)
  }
  switch (target.kind) {
    case 'num': {
      const number = typeNumber(node as ScalarNode, target, word, scope)
      if (number === undefined) return undefined
      const leaf: LeafFilter = { column_id: target.columnId, value: number }
      if (comparison !== undefined) leaf.operator = comparison
      return scope.leaf(leaf, negated, node.span, context)
    }
    case 'date': {
      const bounds = target.dateBounds
      // `date >= d` is the `from_…` column and `date <= d` the `to_…` column, both with `is` (§3.6).
      const bound =
        bounds !== undefined && (comparison === '>=' || comparison === '<=')
          ? comparison === '>='
            ? bounds.from
            : bounds.to
          : undefined
      const columnId = bound ?? target.columnId
      if (!isCalendarDate(text) && !(isDateTimeColumn(scope.entity, columnId) && isDateTime(text)))
        return scope.report('OQL_BAD_DATE', node.span, writeBadDateMessage(text, word))
      if (bound !== undefined)
        return scope.leaf({ column_id: bound, value: text }, negated, node.span, context)
      const leaf: LeafFilter = { column_id: columnId, value: text }
      if (comparison !== undefined) leaf.operator = comparison
      return scope.leaf(leaf, negated, node.span, context)
    }
    case 'bool': {
      if (!BOOLEAN.test(text))
        return scope.report('OQL_BAD_BOOL_VALUE', node.span, writeBadBoolValueMessage(word, text))
      // `is not true`, `is (not true)` and `is (not false)` fold into the value (§3.6); a `not` before
      // the clause stays on the leaf, as a printed `not open access is (false)` reads back as written.
      const value = (text.toLowerCase() === 'true') !== (negated !== context.outerNegated)
      return scope.leaf({ column_id: target.columnId, value }, context.outerNegated, node.span, context)
    }
    case 'enum':
      // A collection id is never re-cased (§3.6).
      if (COLLECTION_ID.test(text))
        return scope.leaf({ column_id: target.columnId, value: text }, negated, node.span, context)
      return scope.leaf(
        {
          column_id: target.columnId,
          value:
            target.casing === 'upper'
              ? text.toUpperCase()
              : target.casing === 'lower'
                ? text.toLowerCase()
                : text,
        },
        negated,
        node.span,
        context,
      )
    default:
      return scope.leaf({ column_id: target.columnId, value: text }, negated, node.span, context)
  }
}

/** A number of the field's kind; a `1-5` range (removed syntax) is told apart, with the bounds to write. */
const typeNumber = (
  node: ScalarNode,
  target: FieldTarget,
  word: string,
  scope: LoweringScope,
): number | undefined => {
  const text = node.text.trim()
  if (INTEGER.test(text) || (target.float && DECIMAL.test(text))) return Number(text)
  if (RANGE.test(text)) {
    const [low, high] = text.startsWith('-') ? ['', text.slice(1)] : text.split('-')
    return scope.report(
      'OQL_RANGE_LITERAL_REMOVED',
      node.span,
      writeRangeLiteralMessage(text, word, low, high),
    )
  }
  return scope.report('OQL_BAD_NUMBER', node.span, writeBadNumberMessage(text, word, target.float))
}
