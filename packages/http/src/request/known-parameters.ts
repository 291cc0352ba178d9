import { ApiError, type ApiProblem } from '../errors/api-error.ts'
import { type QueryParameter, readQueryParameters } from './query-parameters.ts'

/**
 * The parameters of a query string by name, for endpoints with a short fixed list, with a problem for each
 * unknown or repeated one (naming it and the valid ones). Endpoints that check more add their own problems.
 */
export const collectKnownParameters = (
  search: string,
  valid: readonly string[],
  where: string,
): { parameters: Map<string, QueryParameter>; problems: ApiProblem[] } => {
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
  return { parameters, problems }
}

/** `collectKnownParameters`, with any problem a 400. */
export const readKnownParameters = (
  search: string,
  valid: readonly string[],
  where: string,
): ReadonlyMap<string, QueryParameter> => {
  const { parameters, problems } = collectKnownParameters(search, valid, where)
  if (problems.length > 0) throw new ApiError(400, problems)
  return parameters
}
