// Many ids at once against the server that served the page: a lookup (`POST /{entities}/lookup`, one result
// per id in the order given) or a citation snowball from works (`GET /works/snowball`). As with a query's run
// (query-runner.ts), every failure comes back as an outcome to show, never as a thrown error.
import { fetchApiAnswer } from './api-answer-fetch.ts'

/** The most ids one lookup takes, and the most seed works one snowball takes (the server's limits). */
export const MAX_LOOKUP_IDS = 10_000
export const MAX_SNOWBALL_SEEDS = 500

export type SnowballDirection = 'both' | 'cited' | 'citing'

/** What the server calls the data an answer comes from (`meta.data_version`). */
export interface DataVersionMeta {
  readonly name: string
  readonly snapshot_date: string | null
  readonly fingerprint: string
}

export interface LookupResult {
  readonly input: string
  readonly record: Record<string, unknown> | null
  readonly merged_into?: string
  readonly error?: string
  readonly message?: string
}

export interface LookupBody {
  readonly meta: {
    readonly count: number
    readonly found: number
    readonly missing: number
    readonly cost_usd?: number
    readonly data_version?: DataVersionMeta
  }
  readonly results: readonly LookupResult[]
}

export interface SnowballBody {
  readonly meta: {
    readonly count: number
    readonly citations_count: number
    readonly seeds_found: number
    readonly direction: SnowballDirection
    readonly depth: number
    readonly cited_not_held: number
    readonly cost_usd?: number
    readonly data_version?: DataVersionMeta
  }
  readonly seeds_not_found: readonly { readonly input: string; readonly message: string }[]
  readonly works: readonly {
    readonly id: string
    readonly depth: number
    readonly record: Record<string, unknown>
  }[]
  readonly citations: readonly { readonly citing: string; readonly cited: string }[]
}

export type BatchOutcome<Body> =
  | { readonly ok: true; readonly body: Body; readonly clientMs: number }
  | { readonly ok: false; readonly message: string; readonly aborted?: boolean }

/** The ids of a text: one a line (or separated by spaces or commas), blanks dropped, in order. */
export const idsOf = (text: string): string[] => text.split(/[\s,]+/).filter((id) => id !== '')

/** Why the ids cannot be sent as they are, in the page's words, or undefined when they can. */
export const idsProblem = (ids: readonly string[], most: number, what: string): string | undefined => {
  if (ids.length === 0) return `Give the ids ${what}, one a line.`
  if (ids.length > most)
    return `${ids.length.toLocaleString('en-US')} ids: ${what} takes at most ${most.toLocaleString('en-US')}.`
  return undefined
}

const call = async <Body>(url: URL, init: RequestInit, signal?: AbortSignal): Promise<BatchOutcome<Body>> => {
  const answer = await fetchApiAnswer(url, init, signal)
  if (!answer.ok) return answer
  const { response, body, clientMs } = answer
  if (!response.ok) {
    const refusal = body as { message?: string; error?: string }
    return {
      ok: false,
      message: refusal.message ?? refusal.error ?? `The server answered HTTP ${response.status}.`,
    }
  }
  return { ok: true, body: body as Body, clientMs }
}

/** Looks the ids up among the entities of `entityPath` (`works`, `work-types`, …) of the API at `root`. */
export const lookUpIds = (
  root: URL,
  entityPath: string,
  ids: readonly string[],
  signal?: AbortSignal,
): Promise<BatchOutcome<LookupBody>> =>
  call<LookupBody>(
    new URL(`${entityPath}/lookup`, root),
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ ids }),
    },
    signal,
  )

/** The longest request line the server reads (`GET` and its URL); a longer one is refused with 414. */
const MAX_REQUEST_LINE = 8190

/** The works the seeds cite, or that cite them, or both, one step away, with the citations among them all. */
export const snowballFrom = async (
  root: URL,
  seeds: readonly string[],
  direction: SnowballDirection,
  signal?: AbortSignal,
): Promise<BatchOutcome<SnowballBody>> => {
  const url = new URL('works/snowball', root)
  // The seeds go in the URL: OpenAlex URLs as their short ids, which the server takes alike and which are shorter.
  url.searchParams.set('ids', seeds.map((id) => id.replace(/^https?:\/\/openalex\.org\//i, '')).join('|'))
  url.searchParams.set('direction', direction)
  url.searchParams.set('select', 'id,display_name,publication_year,cited_by_count')
  const line = `GET ${url.pathname}${url.search} HTTP/1.1`.length
  if (line > MAX_REQUEST_LINE)
    return {
      ok: false,
      message: `These ${seeds.length.toLocaleString('en-US')} seeds make a URL of ${line.toLocaleString('en-US')} bytes, more than the server reads (${MAX_REQUEST_LINE.toLocaleString('en-US')}): snowball from fewer at once, or give short ids (W123…) rather than DOIs.`,
    }
  return call<SnowballBody>(url, { headers: { accept: 'application/json' } }, signal)
}
