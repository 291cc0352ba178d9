import { decodePercentEscapes } from '@oqlkit/oqo-schema'
/** One `name=value` pair of a query string, decoded, with its raw text kept for the URL reader. */
export interface QueryParameter {
  /** The name as compared: trimmed, `-` read as `_` (`per-page` is `per_page`). */
  readonly name: string
  /** The name as the client wrote it (decoded), for messages. */
  readonly written: string
  readonly value: string
  /** The pair exactly as it arrived (still percent-encoded). */
  readonly raw: string
}

// Decodes like a form decoder: `+` is a space; a `%` that starts no valid escape stays as written.
const decode = (text: string): string => {
  return decodePercentEscapes(text.replaceAll('+', ' '))
}

/** The parameters of a query string (with or without its leading `?`), in order, repeats kept. */
export const readQueryParameters = (search: string): QueryParameter[] =>
  (search.startsWith('?') ? search.slice(1) : search)
    .split('&')
    .filter((pair) => pair !== '')
    .map((raw) => {
      const equals = raw.indexOf('=')
      const written = decode(equals === -1 ? raw : raw.slice(0, equals))
      return {
        name: written.trim().replaceAll('-', '_'),
        written,
        value: equals === -1 ? '' : decode(raw.slice(equals + 1)),
        raw,
      }
    })

/** The raw query string of a request URL (after `?`, before `#`), as received. */
export const rawQueryOf = (url: string): string => {
  const question = url.indexOf('?')
  if (question === -1) return ''
  const hash = url.indexOf('#', question)
  return url.slice(question + 1, hash === -1 ? undefined : hash)
}

/** The raw path of a request URL (no scheme, host or query), as received. */
export const rawPathOf = (url: string): string => {
  const withoutQuery = url.split(/[?#]/, 1)[0] ?? ''
  return withoutQuery.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') || '/'
}
