import type { PlanDiagnostic } from '@oqlkit/engine'
import type { ApiProblem } from './api-error.ts'

/**
 * The message of a planning error as the API words it: the planner's account of what was wrong, and where
 * this server lists what is valid instead. The one place plan diagnostics become words about routes.
 */
export const planMessageOf = (diagnostic: PlanDiagnostic): string =>
  diagnostic.validIn === undefined
    ? diagnostic.message
    : `${diagnostic.message} See GET /properties/${diagnostic.validIn}.`

/**
 * The problems of a plan that failed, for a 400: each with its code, its message and the parameter at fault
 * (`parameter` when the whole plan came from one parameter, as an autocomplete filter does).
 */
export const planProblemsOf = (diagnostics: readonly PlanDiagnostic[], parameter?: string): ApiProblem[] =>
  diagnostics.map((diagnostic) => ({
    error: diagnostic.code,
    message: planMessageOf(diagnostic),
    parameter: parameter ?? diagnostic.parameter,
  }))
