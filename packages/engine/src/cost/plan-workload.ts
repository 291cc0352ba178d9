import type { QueryPlan } from '../plan/query-plan.ts'
import { costClassOfPlan } from './request-cost.ts'

/**
 * How much work a plan is for the storage, for admission: `heavy` when its cost grows with the catalog
 * whatever the page (a text or semantic search scores every match, a group-by counts every row, a sample
 * orders every row at random), `light` otherwise (a filtered page read by keys and sort order). A server
 * bounds how many heavy plans run at once, so that light ones always find storage free.
 */
export type PlanWorkload = 'heavy' | 'light'

export const workloadOfPlan = (plan: QueryPlan): PlanWorkload =>
  plan.groupBy.length > 0 || plan.sample !== null || costClassOfPlan(plan) !== 'list' ? 'heavy' : 'light'
