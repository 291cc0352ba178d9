import type { Oqo } from '@oqlkit/oqo-schema'
import { renderOqlTree } from './oql-printer.ts'
import type { OqlToken, OqlTokenRole } from './oql-tokens.ts'

// Clause addressing: the outline address (`3.1.2`) of a node of the printed OQL, so a finding about
// the OQO can say which clause or value of the text it is about. The printer numbers its tokens as it
// writes them (see `oql-tokens.ts`); this maps a JSON location in the OQO to the number of the token
// that prints it. Addresses are positions in the merged clause tree, not ids: they change as the query
// is edited.

// The member of a leaf that a location names, and which printed token shows that member.
const ROLES_OF_MEMBER: Readonly<Record<string, readonly OqlTokenRole[]>> = {
  value: ['value'],
  column_id: ['field', 'verb'],
  operator: ['operator'],
  join: ['connective'],
}

const LOCATION_STEP = /^(?:\.?([a-z_]+)|\[(\d+)\])/

/** `filter_rows[2].filters[1].value` → the node's pointer `/filter_rows/2/filters/1` and member `value`. */
const pointerOf = (location: string): { pointer: string; member: string | undefined } | undefined => {
  const steps: string[] = []
  let rest = location
  while (rest.length > 0) {
    const match = LOCATION_STEP.exec(rest)
    if (match === null) return undefined
    steps.push(match[1] ?? match[2]!)
    rest = rest.slice(match[0].length)
  }
  if (steps[0] !== 'filter_rows') return undefined
  const last = steps.at(-1)!
  const member = last in ROLES_OF_MEMBER ? steps.pop() : undefined
  return { pointer: `/${steps.join('/')}`, member }
}

const printsNode = (token: OqlToken, pointer: string): boolean =>
  token.path === pointer || token.paths?.includes(pointer) === true

/** The address of the first token that prints the node at `pointer`, of one of `roles` if given. */
const addressIn = (
  tokens: readonly OqlToken[],
  pointer: string,
  roles: readonly OqlTokenRole[] | undefined,
): string | undefined => {
  for (const token of tokens)
    if (token.addr !== undefined && printsNode(token, pointer) && (roles?.includes(token.role) ?? true))
      return token.addr
  return undefined
}

/**
 * The outline address, as its list of numbers (`[3, 1, 2]` for `3.1.2`), of the clause, field or value
 * a JSON location in an OQO points at (`filter_rows[2].filters[1].value`), as the OQO prints in OQL.
 * A location outside the filters, or one the printed query does not show, has none (undefined): a
 * location inside a node the printer merged is answered by the nearest node it printed.
 */
export const clauseAddressOf = (oqo: Oqo, location: string): readonly number[] | undefined => {
  const target = pointerOf(location)
  if (target === undefined) return undefined
  let tokens: OqlToken[]
  try {
    tokens = renderOqlTree(oqo).lines.flatMap((line) => line.tokens)
  } catch {
    // An object too broken to print (it failed validation) has no printed clauses to point at.
    return undefined
  }
  const roles = target.member === undefined ? undefined : ROLES_OF_MEMBER[target.member]
  let pointer = target.pointer
  let address = addressIn(tokens, pointer, roles) ?? addressIn(tokens, pointer, undefined)
  // A node the printer folded into its parent (a branch printed as one clause) is found at its parent.
  while (address === undefined && pointer.lastIndexOf('/') > '/filter_rows'.length) {
    pointer = pointer.slice(0, pointer.lastIndexOf('/'))
    if (/\/filters$/.test(pointer)) pointer = pointer.slice(0, -'/filters'.length)
    address = addressIn(tokens, pointer, undefined)
  }
  return address?.split('.').map(Number)
}
