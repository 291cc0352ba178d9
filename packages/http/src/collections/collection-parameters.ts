import type { PageRequest } from '@oqlkit/engine'
import { ApiError, type ApiProblem } from '../errors/api-error.ts'
import { rawQueryOf, readQueryParameters } from '../request/query-parameters.ts'

const WHOLE_NUMBER = /^\s*\d{1,9}\s*$/

/**
 * The query parameters of a collections endpoint, checked: only `allowed` ones (and `api_key`), each
 * once. Everything else fails the request with every problem listed, as the list endpoints do.
 */
export const readCollectionParameters = (
  url: string,
  allowed: readonly string[],
): ReadonlyMap<string, string> => {
  const names = [...allowed, 'api_key']
  const values = new Map<string, string>()
  const problems: ApiProblem[] = []
  for (const { name, written, value } of readQueryParameters(rawQueryOf(url))) {
    if (!names.includes(name))
      problems.push({
        error: 'unknown_parameter',
        parameter: written,
        message: `'${written}' is not a parameter of this endpoint. Parameters: ${names.join(', ')}.`,
      })
    else if (values.has(name))
      problems.push({
        error: 'repeated_parameter',
        parameter: written,
        message: `${written}= appears more than once; give it once.`,
      })
    else values.set(name, value)
  }
  if (problems.length > 0) throw new ApiError(400, problems)
  return values
}

/** `page` (from 1) and `per_page` (1 to `maxPerPage`, default `defaultPerPage`) of the parameters. */
export const readPage = (
  parameters: ReadonlyMap<string, string>,
  maxPerPage: number,
  defaultPerPage: number,
): PageRequest => {
  const page = parameters.get('page')
  const perPage = parameters.get('per_page')
  const problems: ApiProblem[] = []
  if (page !== undefined && (!WHOLE_NUMBER.test(page) || Number(page) < 1))
    problems.push({
      error: 'invalid_page',
      parameter: 'page',
      message: `page must be a whole number from 1 (was '${page}').`,
    })
  if (
    perPage !== undefined &&
    (!WHOLE_NUMBER.test(perPage) || Number(perPage) < 1 || Number(perPage) > maxPerPage)
  )
    problems.push({
      error: 'invalid_per_page',
      parameter: 'per_page',
      message: `per_page must be a whole number from 1 to ${maxPerPage} (was '${perPage}').`,
    })
  if (problems.length > 0) throw new ApiError(400, problems)
  return {
    page: page === undefined ? 1 : Number(page),
    perPage: perPage === undefined ? defaultPerPage : Number(perPage),
  }
}
