import type { QueryView } from '@oqlkit/oqo-schema'
import { readSortParameter } from './sort-parameter-reader.ts'

/** The view parameters written as text (a query string's), by their URL names. */
export type ViewParameterName = 'sort' | 'select' | 'page' | 'per_page' | 'cursor'

export const VIEW_PARAMETER_NAMES: readonly ViewParameterName[] = [
  'sort',
  'select',
  'page',
  'per_page',
  'cursor',
]

export const isViewParameterName = (name: string): name is ViewParameterName =>
  (VIEW_PARAMETER_NAMES as readonly string[]).includes(name)

/**
 * A view parameter whose text does not read, as data: which parameter, what it must be and what was
 * written. The caller writes the words (each endpoint in its own envelope).
 */
export interface ViewProblem {
  readonly code: 'invalid_page' | 'invalid_per_page' | 'invalid_cursor'
  readonly name: 'page' | 'per_page' | 'cursor'
  readonly expected: 'whole_number' | 'non_empty'
  readonly actual: string
}

/** One view parameter read: the part of the view it gives (none for an empty sort or select), or its problem. */
export type ViewParameterReading =
  | { readonly ok: true; readonly view: QueryView }
  | { readonly ok: false; readonly problem: ViewProblem }

const WHOLE_NUMBER = /^\s*\d+\s*$/

/** The fields of a `select` written as text (`id, display_name`): trimmed, empty ones dropped. */
export const readSelectText = (text: string): string[] =>
  text
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== '')

/**
 * Reads one view parameter of a query string (its decoded value): `sort` into its terms, `select` into
 * field names, `page` and `per_page` into whole numbers, `cursor` trimmed. An empty sort or select gives
 * nothing (as if not written). The one reader of these parameters' text, for every route that takes them.
 */
export const readViewParameter = (name: ViewParameterName, value: string): ViewParameterReading => {
  switch (name) {
    case 'sort':
      return { ok: true, view: value.trim() === '' ? {} : { sort: readSortParameter(value) } }
    case 'select': {
      const fields = readSelectText(value)
      return { ok: true, view: fields.length === 0 ? {} : { select: fields } }
    }
    case 'page':
    case 'per_page':
      if (!WHOLE_NUMBER.test(value))
        return {
          ok: false,
          problem: {
            code: name === 'page' ? 'invalid_page' : 'invalid_per_page',
            name,
            expected: 'whole_number',
            actual: value,
          },
        }
      return { ok: true, view: name === 'page' ? { page: Number(value) } : { perPage: Number(value) } }
    case 'cursor':
      if (value.trim() === '')
        return { ok: false, problem: { code: 'invalid_cursor', name, expected: 'non_empty', actual: value } }
      return { ok: true, view: { cursor: value.trim() } }
  }
}
