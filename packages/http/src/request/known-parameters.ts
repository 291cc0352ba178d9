import { ApiError, type ApiProblem } from '../errors/api-error.ts'
import { type QueryParameter, readQueryParameters } from './query-parameters.ts'

/**
 * The parameters of a query string by name, for endpoints with a short fixed list: an unknown or
 * repeated parameter is a 400 naming it and the valid ones.
 */
export const readKnownParameters = (
  search: string,
  valid: readonly string[],
  where: string,
): ReadonlyMap<string, QueryParameter> => {
  const problems: ApiProblem[] = []
  const parameters = new Map<string, QueryParameter>()
  for (const parameter of readQueryParameters(search)) {
    if (!valid.includes(parameter.name))
      problems.push({
        error: 'unknown_parameter',
        parameter: parameter.written,
        message: `'${parameter.written}' is not a parameter of ${where}. Valid parameters: ${valid.join(', ')}.`,
      })
    else if (parameters.has(parameter.name))
      problems.push({
        error: 'repeated_parameter',
        parameter: parameter.written,
        message: `${parameter.written}= appears more than once; give it once.`,
      })
    else parameters.set(parameter.name, parameter)
  }
  if (problems.length > 0) throw new ApiError(400, problems)
  return parameters
}
