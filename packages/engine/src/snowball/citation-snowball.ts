// Citation snowballing (`GET /works/snowball`): from seed works, the works they cite and the works that cite
// them, one or two steps out, with every citation between the works found. Built on what every adapter has:
// the works a work cites are its record's `referenced_works`, looked up together (`lookupEntities`); the works
// citing a set are a list plan filtered on `referenced_works`, read by cursor (`streamRows`). No adapter needs a
// method of its own, and each step is one statement per thousand works, not one call per work as a client's
// page-by-page snowball makes.
import { lookupEntities } from '../adapter/bulk-lookup.ts'
import { throwIfInterrupted } from '../adapter/query-interrupted-error.ts'
import type { EntityRecord, QueryOptions, StorageAdapter } from '../adapter/storage-adapter.ts'
import { namedErrorGuard } from '../errors/named-error-guard.ts'
import { planQuery } from '../planner/plan-query.ts'
import { pickJsonMembers } from '../shaping/json-member-picker.ts'
import { streamRows } from '../shaping/row-stream.ts'

/** Which citations a snowball follows: to the works a work cites, from the works citing it, or both. */
export type SnowballDirection = 'cited' | 'citing' | 'both'

export const SNOWBALL_DIRECTIONS: readonly SnowballDirection[] = ['both', 'cited', 'citing']

/** The steps a snowball may take out from its seeds: two from 100 seeds already reaches thousands of works. */
export const MAX_SNOWBALL_DEPTH = 2

/** The most works one snowball answers, seeds included: past it the request is refused, saying how to narrow it. */
export const MAX_SNOWBALL_NODES = 10_000

/** The most seeds one snowball starts from. */
export const MAX_SNOWBALL_SEEDS = 500

/** Works named in one filter of the citing step: a plan's in-list stays one index probe of a modest list. */
const CITED_PER_STATEMENT = 1000

/** A work of a snowball: its short id, how many steps from a seed it was found (0 for a seed), and its record. */
export interface SnowballNode {
  readonly id: string
  readonly depth: number
  /** The record's stored JSON bytes when the adapter has them, else the record. */
  readonly record: Uint8Array | EntityRecord
}

/** A citation between two works of a snowball: `citing` lists `cited` in its `referenced_works`. */
export interface SnowballEdge {
  readonly citing: string
  readonly cited: string
}

export interface SnowballRequest {
  /** The seeds' records (found by the caller, from ids of any kind). */
  readonly seeds: readonly (Uint8Array | EntityRecord)[]
  readonly direction: SnowballDirection
  /** 1 or 2. */
  readonly depth: number
}

export interface SnowballResult {
  /** Seeds first (in the order given, each once), then each step's works, by id. */
  readonly nodes: readonly SnowballNode[]
  /** Every citation between two nodes, citing works in the nodes' order, each work's references in its order. */
  readonly edges: readonly SnowballEdge[]
  /**
   * Works the steps toward cited works tried to reach that this catalog does not hold under the id cited (a
   * subset of the snapshot, a deleted or merged work): each counted once.
   */
  readonly citedNotHeld: number
}

/** A snowball that reaches more works than `MAX_SNOWBALL_NODES`: the request is refused whole. */
export class SnowballTooLargeError extends Error {
  override readonly name = 'SnowballTooLargeError'
  constructor(
    /** The step at which the limit was passed (1 or 2). */
    readonly depth: number,
    /** How many works the snowball had reached when it stopped: more than the limit. */
    readonly reached: number,
    readonly limit: number,
  ) {
    super(
      `The snowball reaches more than ${limit.toLocaleString('en')} works by step ${depth} (${reached.toLocaleString('en')} so far)`,
    )
  }
}

export const isSnowballTooLargeError = namedErrorGuard<SnowballTooLargeError>('SnowballTooLargeError')

const CITATION_MEMBERS: ReadonlySet<string> = new Set(['id', 'referenced_works'])
const utf8 = new TextDecoder()

/** The part of an OpenAlex id URL after its last slash: `W2741809807`. */
const shortIdOf = (value: unknown): string => {
  const text = String(value)
  return text.slice(text.lastIndexOf('/') + 1)
}

/** A work's short id and the short ids it cites, read from its stored bytes without parsing the rest. */
const citationsOf = (record: Uint8Array | EntityRecord): { id: string; cites: string[] } => {
  const fields =
    record instanceof Uint8Array
      ? (JSON.parse(pickJsonMembers(utf8.decode(record), CITATION_MEMBERS)) as EntityRecord)
      : record
  const references = Array.isArray(fields.referenced_works) ? fields.referenced_works : []
  return { id: shortIdOf(fields.id), cites: references.map(shortIdOf) }
}

/** The works the nodes found so far: each node's citations, read once. */
class SnowballNodes {
  readonly #byId = new Map<string, SnowballNode & { readonly cites: readonly string[] }>()

  constructor(readonly limit: number) {}

  has(id: string): boolean {
    return this.#byId.has(id)
  }

  get size(): number {
    return this.#byId.size
  }

  /** Adds a work found at `depth` and returns its id, or undefined when it was found before (it keeps its first depth). */
  add(record: Uint8Array | EntityRecord, depth: number): string | undefined {
    const { id, cites } = citationsOf(record)
    if (this.#byId.has(id)) return undefined
    if (this.#byId.size >= this.limit) throw new SnowballTooLargeError(depth, this.#byId.size + 1, this.limit)
    this.#byId.set(id, { id, depth, record, cites })
    return id
  }

  citesOf(id: string): readonly string[] {
    return this.#byId.get(id)?.cites ?? []
  }

  /** Seeds in the order added, then each step's works by id (numerically: `W9` before `W10`). */
  ordered(): (SnowballNode & { readonly cites: readonly string[] })[] {
    const numberOf = (id: string) => Number(id.slice(1))
    return [...this.#byId.values()]
      .map((node, added) => ({ node, added }))
      .sort(
        (a, b) =>
          a.node.depth - b.node.depth ||
          (a.node.depth === 0 ? a.added - b.added : numberOf(a.node.id) - numberOf(b.node.id)) ||
          a.node.id.localeCompare(b.node.id),
      )
      .map(({ node }) => node)
  }
}

/** The works `frontier` cites that are not nodes yet, looked up together; returns the ids found and how many were not held. */
async function stepToCited(
  adapter: StorageAdapter,
  nodes: SnowballNodes,
  frontier: readonly string[],
  depth: number,
  options: QueryOptions,
): Promise<{ found: string[]; notHeld: number }> {
  const wanted = [...new Set(frontier.flatMap((id) => nodes.citesOf(id)))].filter((id) => !nodes.has(id))
  const found: string[] = []
  let notHeld = 0
  // In slices of what the snowball may still take: past the limit the first slice that fills it stops the walk
  // before the rest are read.
  const slice = Math.max(1, nodes.limit)
  for (let start = 0; start < wanted.length; start += slice) {
    throwIfInterrupted(options.signal)
    const ids = wanted.slice(start, start + slice)
    const results = await lookupEntities(
      adapter,
      'works',
      ids.map((id) => ({ kind: 'openalex', id })),
      options,
    )
    for (const result of results) {
      if (result.status !== 'found') notHeld++
      else {
        const id = nodes.add(result.jsonBytes ?? result.record, depth)
        if (id !== undefined) found.push(id)
      }
    }
  }
  return { found, notHeld }
}

/** The works citing any of `frontier` that are not nodes yet, read by cursor a thousand at a time. */
async function stepToCiting(
  adapter: StorageAdapter,
  nodes: SnowballNodes,
  frontier: readonly string[],
  depth: number,
  options: QueryOptions,
): Promise<string[]> {
  const found: string[] = []
  for (let start = 0; start < frontier.length; start += CITED_PER_STATEMENT) {
    const cited = frontier.slice(start, start + CITED_PER_STATEMENT)
    const planned = planQuery({
      get_rows: 'works',
      filter_rows: [
        { join: 'or', filters: cited.map((id) => ({ column_id: 'referenced_works', value: id })) },
      ],
    })
    if (!planned.ok) throw new Error(`The citing step could not be planned: ${planned.errors[0]?.message}`)
    // Every work held, as the cited side's lookups find them: the expansion corpus too, not only a list's core.
    const plan = Object.freeze({ ...planned.plan, corpus: 'all' as const })
    for await (const batch of streamRows(adapter, plan, options)) {
      // The works citing the frontier, with the nodes found before, are more than the limit when they alone
      // are: refused before a row is read.
      if (batch.count > nodes.limit) throw new SnowballTooLargeError(depth, batch.count, nodes.limit)
      for (const record of batch.jsonBytes ?? batch.rows) {
        const id = nodes.add(record, depth)
        if (id !== undefined) found.push(id)
      }
    }
  }
  return found
}

/**
 * The snowball of `request.seeds`: `depth` steps along the citations `direction` names, then every citation
 * between the works reached. Throws `SnowballTooLargeError` as soon as more than `limit` works are reached.
 */
export async function snowballWorks(
  adapter: StorageAdapter,
  request: SnowballRequest,
  options: QueryOptions = {},
  limit = MAX_SNOWBALL_NODES,
): Promise<SnowballResult> {
  const nodes = new SnowballNodes(limit)
  let frontier: string[] = []
  for (const seed of request.seeds) {
    const id = nodes.add(seed, 0)
    if (id !== undefined) frontier.push(id)
  }
  let citedNotHeld = 0
  for (let depth = 1; depth <= request.depth && frontier.length > 0; depth++) {
    const next: string[] = []
    if (request.direction !== 'citing') {
      const { found, notHeld } = await stepToCited(adapter, nodes, frontier, depth, options)
      next.push(...found)
      citedNotHeld += notHeld
    }
    if (request.direction !== 'cited')
      next.push(...(await stepToCiting(adapter, nodes, frontier, depth, options)))
    frontier = next
  }
  const ordered = nodes.ordered()
  const edges: SnowballEdge[] = []
  for (const node of ordered) {
    for (const cited of new Set(node.cites))
      if (nodes.has(cited) && cited !== node.id) edges.push({ citing: node.id, cited })
  }
  return {
    nodes: ordered.map(({ id, depth, record }) => ({ id, depth, record })),
    edges,
    citedNotHeld,
  }
}
