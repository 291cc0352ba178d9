// The entity pools of a generated snapshot (topics, institutions, sources, publishers, funders, authors,
// keywords, concepts) and the year layout, all a function of (N, seed). The main thread and every worker
// thread of pass 2 build their own copy from these two numbers: it takes well under a second even at 10M
// works (authors are recomputed on demand, the other pools are small), far less than sending them over.
import { AuthorPool } from './author-pool.ts'
import { type PoolSizes, poolSizes, YearLayout } from './generation-plan.ts'
import { OrganizationPools } from './organization-pools.ts'
import { TermPools } from './term-pools.ts'
import { TopicPool } from './topic-pool.ts'

export interface GenerationPools {
  readonly sizes: PoolSizes
  readonly layout: YearLayout
  readonly topics: TopicPool
  readonly orgs: OrganizationPools
  readonly authors: AuthorPool
  readonly terms: TermPools
}

/** `seed` is the internal (normalised) seed. */
export function createGenerationPools(works: number, seed: number): GenerationPools {
  const sizes = poolSizes(works)
  const topics = new TopicPool(sizes.topics, seed)
  const orgs = new OrganizationPools(sizes, seed)
  return {
    sizes,
    layout: new YearLayout(works),
    topics,
    orgs,
    authors: new AuthorPool(sizes.authors, seed, topics, orgs),
    terms: new TermPools(sizes.keywords, sizes.concepts, seed),
  }
}
