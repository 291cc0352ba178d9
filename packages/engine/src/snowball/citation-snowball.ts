// Citation snowballing (`GET /works/snowball`): from seed works, the works they cite and the works that cite
// them, one or two steps out, with every citation between the works found. Two ways, one answer: through the
// storage's own citation lookup (`findCitations`: the citations alone, then only the records asked for), or, for
// a storage without one, through what every adapter has: the references of each work reached read from its
// record (`lookupEntities`) and the works citing a set as a list filtered on `referenced_works` (`streamRows`).
import { lookupEntities, MAX_LOOKUP_IDS } from '../adapter/bulk-lookup.ts'
import { throwIfInterrupted } from '../adapter/query-interrupted-error.ts'
import type {
  Citation,
  CitationDirection,
  EntityRecord,
  QueryOptions,
  StorageAdapter,
} from '../adapter/storage-adapter.ts'
import { planQuery } from '../planner/plan-query.ts'
import { streamRows } from '../shaping/row-stream.ts'
import { type RecordCitations, recordCitationsOf } from './record-citations.ts'
import { SnowballGraph, SnowballTooLargeError } from './snowball-graph.ts'

/** Which citations a snowball follows: to the works a work cites, from the works citing it, or both. */
export type SnowballDirection = 'cited' | 'citing' | 'both'

export const SNOWBALL_DIRECTIONS: readonly SnowballDirection[] = ['both', 'cited', 'citing']

/** The steps a snowball may take out from its seeds: two from 100 seeds already reaches thousands of works. */
export const MAX_SNOWBALL_DEPTH = 2

/** The most works one snowball answers, seeds included: past it the request is refused, saying how to narrow it. */
export const MAX_SNOWBALL_NODES = 10_000

/** The most seeds one snowball starts from. */
export const MAX_SNOWBALL_SEEDS = 500

/** Works named in one statement: a plan's in-list, a citation lookup's list. */
const WORKS_PER_STATEMENT = 1000

/** A work of a snowball: its short id, how many steps from a seed it was found (0 for a seed), and its record. */
export interface SnowballNode {
  readonly id: string
  readonly depth: number
  /** The record's stored JSON bytes when the adapter has them, else the record; absent when not asked for. */
  readonly record?: Uint8Array | EntityRecord
}

/** A citation between two works of a snowball: `citing` lists `cited` in its `referenced_works`. */
export type SnowballEdge = Citation

export interface SnowballRequest {
  /** The seeds' records (found by the caller, from ids of any kind). */
  readonly seeds: readonly (Uint8Array | EntityRecord)[]
  readonly direction: SnowballDirection
  /** 1 or 2. */
  readonly depth: number
  /**
   * Whether each work comes with its record (default true). Without them (an answer of ids, `select=id`), a
   * storage with its own citation lookup reads no record at all.
   */
  readonly records?: boolean
}

export interface SnowballResult {
  /** Seeds first (in the order given, each once), then each step's works, by id. */
  readonly nodes: readonly SnowballNode[]
  /** Every citation between two nodes, by citing work then cited work, in the nodes' order. */
  readonly edges: readonly SnowballEdge[]
  /**
   * Works the steps toward cited works tried to reach that this catalog does not hold under the id cited (a
   * subset of the snapshot, a deleted or merged work): each counted once.
   */
  readonly citedNotHeld: number
}

/** A work id as one key whatever its case or leading zeros: `w0123` and `W123` name one work. */
const workKeyOf = (id: string): string => `W${id.slice(1).replace(/^0+(?=\d)/, '')}`

const slices = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, at) => items.slice(at * size, (at + 1) * size))

/** The seeds' ids and citations, in order, each once. */
const seedsOf = (request: SnowballRequest) => {
  const seeds = new Map<string, { record: Uint8Array | EntityRecord; citations: RecordCitations }>()
  for (const record of request.seeds) {
    const citations = recordCitationsOf(record)
    if (!seeds.has(citations.id)) seeds.set(citations.id, { record, citations })
  }
  return seeds
}

/** The snowball through the storage's citation lookup: citations first, then the records asked for. */
async function snowballByCitations(
  adapter: StorageAdapter,
  findCitations: NonNullable<StorageAdapter['findCitations']>,
  request: SnowballRequest,
  options: QueryOptions,
  limit: number,
): Promise<SnowballResult> {
  const graph = new SnowballGraph(limit)
  const seeds = seedsOf(request)
  for (const id of seeds.keys()) graph.add(id, 0)
  /**
   * The citations of `ids` in `direction`, a statement per slice. At a step (`depth`), the works they would add
   * are counted as they come: past the limit the step stops with the error before reading further slices.
   */
  const citedNotHeld = new Set<string>()
  const citationsOf = async (ids: readonly string[], direction: CitationDirection, depth?: number) => {
    const citations: Citation[] = []
    const added = new Set<string>()
    // The citations between works need every work in one statement (at most the node limit).
    for (const slice of direction === 'between' ? [ids] : slices(ids, WORKS_PER_STATEMENT)) {
      throwIfInterrupted(options.signal)
      const found = await findCitations(slice, direction, options)
      // One by one: a spread of tens of thousands of arguments overflows the stack.
      for (const citation of found.citations) {
        citations.push(citation)
        const reached = direction === 'cited' ? citation.cited : citation.citing
        if (depth !== undefined && !graph.has(reached)) added.add(reached)
      }
      if (depth !== undefined && graph.size + added.size > limit)
        throw new SnowballTooLargeError(depth, graph.size + added.size, limit)
      for (const id of found.citedNotHeld) citedNotHeld.add(id)
    }
    return citations
  }
  /**
   * The first step toward cited works, from the seeds' references (their records are in hand) kept where the
   * storage holds the work: point lookups of the works cited, where `findCitations(seeds, 'cited')` reads the
   * link table by its citing side. Only the works reached matter here: the citations come from `between`.
   */
  const citedBySeeds = async (
    findHeld: NonNullable<StorageAdapter['findHeldWorks']>,
  ): Promise<Citation[]> => {
    const cites = new Map<string, string>()
    for (const [id, seed] of seeds)
      for (const cited of seed.citations.cites) if (!cites.has(cited)) cites.set(cited, id)
    const wanted = [...cites.keys()].filter((id) => !graph.has(id))
    // The storage answers each work held under the id it keeps (`W123`), whatever the case or zeros asked.
    const held = new Map<string, string>()
    for (const slice of slices(wanted, MAX_LOOKUP_IDS)) {
      throwIfInterrupted(options.signal)
      for (const id of await findHeld(slice, options)) held.set(workKeyOf(id), id)
      if (graph.size + held.size > limit) throw new SnowballTooLargeError(1, graph.size + held.size, limit)
    }
    const citations: Citation[] = []
    for (const id of wanted) {
      const cited = held.get(workKeyOf(id))
      if (cited === undefined) citedNotHeld.add(id)
      else if (!graph.has(cited)) citations.push({ citing: cites.get(id)!, cited })
    }
    return citations
  }
  const findHeld = adapter.findHeldWorks?.bind(adapter)
  let frontier = [...seeds.keys()]
  for (let depth = 1; depth <= request.depth && frontier.length > 0; depth++) {
    // Both ways at once (a storage answers two statements side by side); the works are added cited first, so
    // the answer is the same whichever comes back first.
    const [cited, citing] = await Promise.all([
      request.direction === 'citing'
        ? undefined
        : depth === 1 && findHeld !== undefined
          ? citedBySeeds(findHeld)
          : citationsOf(frontier, 'cited', depth),
      request.direction === 'cited' ? undefined : citationsOf(frontier, 'citing', depth),
    ])
    const next: string[] = []
    for (const citation of cited ?? []) if (graph.add(citation.cited, depth)) next.push(citation.cited)
    for (const citation of citing ?? []) if (graph.add(citation.citing, depth)) next.push(citation.citing)
    frontier = next
  }
  // Every citation among the works reached, in one statement: the last step's works cite hundreds of works each
  // that the snowball does not hold, which a lookup of their references would read only to drop.
  const works = graph.works()
  for (const citation of await citationsOf(
    works.map(({ id }) => id),
    'between',
  ))
    graph.cite(citation)

  const records = new Map<string, Uint8Array | EntityRecord>()
  if (request.records !== false) {
    for (const [id, seed] of seeds) records.set(id, seed.record)
    const wanted = works.filter(({ id }) => !records.has(id)).map(({ id }) => id)
    for (const slice of slices(wanted, MAX_LOOKUP_IDS)) {
      const found = await lookupEntities(
        adapter,
        'works',
        slice.map((id) => ({ kind: 'openalex', id })),
        options,
      )
      found.forEach((result, at) => {
        if (result.status === 'found') records.set(slice[at]!, result.jsonBytes ?? result.record)
      })
    }
  }
  // A work whose record went missing between the statements (a catalog swapped under the server) is left out.
  const nodes = works.flatMap(({ id, depth }): SnowballNode[] => {
    if (request.records === false) return [{ id, depth }]
    const record = records.get(id)
    return record === undefined ? [] : [{ id, depth, record }]
  })
  const kept = new Set(nodes.map(({ id }) => id))
  return {
    nodes,
    edges: graph.citations().filter(({ citing, cited }) => kept.has(citing) && kept.has(cited)),
    citedNotHeld: citedNotHeld.size,
  }
}

/** The snowball through records and lists alone: each work reached is read whole, for its references. */
async function snowballByRecords(
  adapter: StorageAdapter,
  request: SnowballRequest,
  options: QueryOptions,
  limit: number,
): Promise<SnowballResult> {
  const graph = new SnowballGraph(limit)
  const reached = new Map<string, { record: Uint8Array | EntityRecord; cites: readonly string[] }>()
  const reach = (record: Uint8Array | EntityRecord, depth: number): string | undefined => {
    const { id, cites } = recordCitationsOf(record)
    if (!graph.add(id, depth)) return undefined
    reached.set(id, { record, cites })
    for (const cited of cites) graph.cite({ citing: id, cited })
    return id
  }
  /** The id of a work newly reached, as a list of one (none when it was reached before). */
  const reachedIds = (record: Uint8Array | EntityRecord, depth: number): string[] => {
    const id = reach(record, depth)
    return id === undefined ? [] : [id]
  }
  let frontier = request.seeds.flatMap((record) => reachedIds(record, 0))
  // Each work cited but not held, once, however many works cite it.
  const notHeld = new Set<string>()
  for (let depth = 1; depth <= request.depth && frontier.length > 0; depth++) {
    const next: string[] = []
    if (request.direction !== 'citing') {
      const wanted = [...new Set(frontier.flatMap((id) => reached.get(id)!.cites))].filter(
        (id) => !graph.has(id) && !notHeld.has(id),
      )
      // In slices of the limit: past it, the first slice that fills it stops the walk before the rest are read.
      for (const slice of slices(wanted, Math.max(1, limit))) {
        throwIfInterrupted(options.signal)
        const results = await lookupEntities(
          adapter,
          'works',
          slice.map((id) => ({ kind: 'openalex', id })),
          options,
        )
        results.forEach((result, at) => {
          if (result.status !== 'found') notHeld.add(slice[at]!)
          else next.push(...reachedIds(result.jsonBytes ?? result.record, depth))
        })
      }
    }
    if (request.direction !== 'cited')
      for (const cited of slices(frontier, WORKS_PER_STATEMENT)) {
        const planned = planQuery({
          get_rows: 'works',
          filter_rows: [
            { join: 'or', filters: cited.map((id) => ({ column_id: 'referenced_works', value: id })) },
          ],
        })
        if (!planned.ok)
          throw new Error(`The citing step could not be planned: ${planned.errors[0]?.message}`)
        // Every work held, as the cited side's lookups find them: the expansion corpus too, not only a list's core.
        const plan = Object.freeze({ ...planned.plan, corpus: 'all' as const })
        const batchSize = Math.max(1, limit - graph.size + 1)
        for await (const batch of streamRows(adapter, plan, { ...options, batchSize })) {
          // The works citing the frontier, with the works reached before, are more than the limit when they alone
          // are: refused before a row is read.
          if (batch.count > limit) throw new SnowballTooLargeError(depth, batch.count, limit)
          for (const record of batch.jsonBytes ?? batch.rows) next.push(...reachedIds(record, depth))
        }
      }
    frontier = next
  }
  return {
    nodes: graph.works().map(({ id, depth }) => ({ id, depth, record: reached.get(id)!.record })),
    edges: graph.citations(),
    citedNotHeld: notHeld.size,
  }
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
  const { findCitations } = adapter
  return findCitations === undefined
    ? snowballByRecords(adapter, request, options, limit)
    : snowballByCitations(adapter, findCitations.bind(adapter), request, options, limit)
}
