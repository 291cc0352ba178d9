import type { ViewProblem } from '@oqlkit/oql'

/**
 * The words of a view parameter that does not read (oql's `readViewParameter` says which and what was
 * written), as the list, execute and export endpoints answer it. `written` is the name as the client wrote
 * it (`per-page`).
 */
export const viewProblemMessage = (problem: ViewProblem, written: string): string => {
  switch (problem.name) {
    case 'page':
      return `page must be a whole number from 1 (was '${problem.actual}').`
    case 'per_page':
      return `${written} must be a whole number, such as ${written}=25 (was '${problem.actual}').`
    case 'cursor':
      return 'cursor= is empty. Start with cursor=* and pass meta.next_cursor for the next page.'
  }
}
