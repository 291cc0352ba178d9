// What the execute endpoint answers: the list envelope, with rows (`results`) or buckets (`group_by`).

export interface Bucket {
  readonly key: string
  readonly key_display_name?: string
  readonly count: number
}

export interface ListEnvelope {
  readonly meta: {
    readonly count?: number
    readonly db_response_time_ms?: number
    readonly page?: number | null
    readonly per_page?: number
    readonly groups_count?: number | null
    readonly cost_usd?: number
    readonly x_query?: {
      readonly oql?: string
      readonly oqo?: { readonly get_rows?: string } & Record<string, unknown>
    }
  } & Record<string, unknown>
  readonly results?: readonly Record<string, unknown>[]
  readonly group_by?: readonly Bucket[]
}

/** Whether a response holds buckets: lists carry an empty `group_by` beside their `results`, as the public API does. */
export const isGrouped = (body: ListEnvelope): boolean =>
  body.results === undefined && body.group_by !== undefined
