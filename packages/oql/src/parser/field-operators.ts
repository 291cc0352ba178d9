import type { FieldTarget } from './field-index.ts'
import type { OperatorNode } from './oql-syntax.ts'

// Which operators each kind of field takes (§3.4), and how an operator is written back. The lowering
// refuses an operator that does not fit; the editor offers the ones that do; messages name both.

/** The operators each kind of field takes (§3.4), in the order an editor offers them. */
export const OPERATORS_OF_KIND: Readonly<Record<FieldTarget['kind'], readonly string[]>> = {
  search: ['has', 'does not have', 'is similar to'],
  num: ['is', 'is not', '>', '>=', '<', '<='],
  date: ['is', '>', '>=', '<', '<='],
  bool: ['is', 'is not'],
  id: ['is', 'is not', 'is in collection', 'is not in collection'],
  enum: ['is', 'is not', 'is in collection', 'is not in collection'],
  string: ['is', 'is not'],
  collection: ['is in collection', 'is not in collection'],
}

/** The operator as the user writes it, negation included (`is not in collection`). */
export const operatorText = (operator: Pick<OperatorNode, 'name' | 'negated'>): string => {
  switch (operator.name) {
    case 'is':
      return operator.negated ? 'is not' : 'is'
    case 'in collection':
      return operator.negated ? 'is not in collection' : 'is in collection'
    case 'has':
      return operator.negated ? 'does not have' : 'has'
    case 'similar to':
      return operator.negated ? 'is not similar to' : 'is similar to'
    default:
      return operator.name
  }
}

/** Whether the operator applies to the kind of field; the table above, read by operator family. */
export const operatorFits = (operator: OperatorNode, kind: FieldTarget['kind']): boolean => {
  switch (operator.family) {
    case 'search':
    case 'semantic':
      return kind === 'search'
    case 'comparison':
      return kind === 'num' || kind === 'date'
    case 'list':
      return operator.name === 'in collection'
        ? kind === 'id' || kind === 'enum' || kind === 'collection'
        : kind !== 'search' && kind !== 'collection'
  }
}
