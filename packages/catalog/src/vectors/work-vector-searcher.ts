// What the adapter searches: the works' matrix, and its list index when the catalog has one. With the index a
// search scores the rows of the lists nearest the query (and, under a narrow filter, the kept rows exactly:
// `IvfVectorIndex.nearest` says the rule); without one (a small catalog, one built before the index, or one
// whose vectors had no structure worth listing) it scores every candidate row.
import type { IvfVectorIndex } from './ivf-vector-index.ts'
import type { VectorCandidates, VectorMatch, WorkVectorMatrix } from './work-vector-matrix.ts'

export class WorkVectorSearcher {
  readonly matrix: WorkVectorMatrix
  readonly index: IvfVectorIndex | undefined

  constructor(matrix: WorkVectorMatrix, index?: IvfVectorIndex) {
    this.matrix = matrix
    this.index = index
  }

  /** The candidates of a search: the rows of `ids` (ascending). */
  candidatesOf(ids: readonly string[]): VectorCandidates {
    return this.matrix.candidatesOf(ids)
  }

  /** The `limit` works nearest to `query` (a unit vector) among `candidates`, best first, ties by id. */
  nearest(query: Float32Array, limit: number, candidates?: VectorCandidates): VectorMatch[] {
    return this.index === undefined
      ? this.matrix.nearest(query, limit, candidates)
      : this.index.nearest(this.matrix, query, limit, candidates)
  }
}
