/**
 * The view parameters of a classic URL: how results are sorted, shaped and paged, and who asks. They
 * travel beside the OQO (which says only which rows match), under their URL names.
 */
export interface UrlView {
  readonly sort?: string
  readonly select?: string
  readonly per_page?: number
  readonly page?: number
  readonly cursor?: string
  readonly api_key?: string
  readonly mailto?: string
}

export type UrlViewKey = keyof UrlView

/** The view keys in the order a rendered URL writes them (each slotted among the OQO parameters). */
export const VIEW_KEYS: readonly UrlViewKey[] = [
  'sort',
  'select',
  'per_page',
  'page',
  'cursor',
  'api_key',
  'mailto',
]

// The public server's cap, so URLs written for it translate; the executor enforces the API's own 100.
export const MAX_PER_PAGE = 200

export const isViewKey = (name: string): name is UrlViewKey => (VIEW_KEYS as readonly string[]).includes(name)
