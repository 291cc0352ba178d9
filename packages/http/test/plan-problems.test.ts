// Planning errors become API problems in one place: the planner says what was wrong, and the HTTP layer
// adds where the server lists what is valid and which parameter was at fault.
import type { PlanDiagnostic } from '@oqlkit/engine'
import { describe, expect, it } from 'vitest'
import { planMessageOf, planProblemsOf } from '../src/errors/plan-problems.ts'

const unfilterable: PlanDiagnostic = {
  code: 'invalid_filter',
  message: "'abstract' of works cannot be used to filter.",
  parameter: 'filter',
  validIn: 'works',
}
const badPage: PlanDiagnostic = {
  code: 'invalid_page',
  message: 'page must be 1 or more.',
  parameter: 'page',
}

describe('planProblemsOf', () => {
  it('points to the properties of the entity where the planner says the fix is listed', () => {
    expect(planMessageOf(unfilterable)).toBe(
      "'abstract' of works cannot be used to filter. See GET /properties/works.",
    )
    expect(planMessageOf(badPage)).toBe('page must be 1 or more.')
  })

  it('names the parameter at fault, or the one the whole plan came from', () => {
    expect(planProblemsOf([unfilterable, badPage])).toEqual([
      { error: 'invalid_filter', message: planMessageOf(unfilterable), parameter: 'filter' },
      { error: 'invalid_page', message: 'page must be 1 or more.', parameter: 'page' },
    ])
    expect(planProblemsOf([badPage], 'filter')[0]?.parameter).toBe('filter')
  })
})
