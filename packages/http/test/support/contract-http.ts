// Small helpers for the contract tests: one request through `app.fetch`, the envelope typed as the API
// description states it, and failures that show the response body (a status alone says little).
import { expect } from 'vitest'
import type { SampleRecord } from './sample-oracle.ts'

export interface FetchApp {
  fetch(request: Request): Response | Promise<Response>
}

export interface ApiResponse {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The parsed body, or undefined when it is not JSON. */
  readonly json: unknown
}

export interface XQuery {
  readonly oql: unknown
  readonly oqo: unknown
  readonly url: unknown
}

export interface ListMeta {
  readonly count: number
  readonly db_response_time_ms: number
  readonly page: number | null
  readonly per_page: number
  readonly groups_count: number | null
  readonly next_cursor?: string | null
  readonly cost_usd: number
  readonly x_query: XQuery
  readonly [key: string]: unknown
}

export interface GroupBucket {
  readonly key: string
  readonly key_display_name: string
  readonly count: number
  readonly groups?: readonly GroupBucket[]
  readonly [key: string]: unknown
}

export interface ListBody {
  readonly meta: ListMeta
  readonly results: readonly SampleRecord[]
  readonly group_by?: readonly GroupBucket[]
}

export interface ErrorBody {
  readonly error: string
  readonly code: string
  readonly message: string
}

export const HOST = 'http://localhost'

export async function request(app: FetchApp, path: string, init?: RequestInit): Promise<ApiResponse> {
  const response = await app.fetch(new Request(`${HOST}${path}`, { redirect: 'manual', ...init }))
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}

const describeResponse = (path: string, response: ApiResponse): string =>
  `GET ${path} → ${response.status} ${response.text.slice(0, 600)}`

/** A list or group response; fails with the body when the status is not 200. */
export async function getList(app: FetchApp, path: string): Promise<ListBody> {
  const response = await request(app, path)
  expect(response.status, describeResponse(path, response)).toBe(200)
  const body = response.json as ListBody
  expect(body?.meta, describeResponse(path, response)).toBeTypeOf('object')
  return body
}

/** `meta.count` of a list request. */
export const getCount = async (app: FetchApp, path: string): Promise<number> =>
  (await getList(app, path)).meta.count

/** Every result of a query, following `meta.next_cursor` from `*` until it is null. */
export async function getAllByCursor(
  app: FetchApp,
  path: string,
  perPage = 100,
): Promise<{ results: SampleRecord[]; pages: ListBody[] }> {
  const results: SampleRecord[] = []
  const pages: ListBody[] = []
  const join = path.includes('?') ? '&' : '?'
  let cursor: string | null | undefined = '*'
  for (let guard = 0; cursor !== null && cursor !== undefined; guard++) {
    if (guard > 200) throw new Error(`cursor paging of ${path} did not end`)
    const body: ListBody = await getList(
      app,
      `${path}${join}per_page=${perPage}&cursor=${encodeURIComponent(cursor)}`,
    )
    pages.push(body)
    results.push(...body.results)
    expect(body.meta, `${path}: meta.next_cursor is present with cursor paging`).toHaveProperty('next_cursor')
    cursor = body.meta.next_cursor
  }
  return { results, pages }
}

/** An error response: the status, a JSON `{error, code, message}` body; returns the body for message checks. */
export async function expectError(app: FetchApp, path: string, status = 400): Promise<ErrorBody> {
  const response = await request(app, path)
  expect(response.status, describeResponse(path, response)).toBe(status)
  expect(response.headers.get('content-type') ?? '', describeResponse(path, response)).toContain(
    'application/json',
  )
  const body = response.json as ErrorBody
  expect(typeof body?.error, describeResponse(path, response)).toBe('string')
  expect(typeof body?.code, describeResponse(path, response)).toBe('string')
  expect(typeof body?.message, describeResponse(path, response)).toBe('string')
  return body
}

/** Short upper-case ids of API results, sorted. */
export const resultIds = (results: readonly SampleRecord[]): string[] =>
  results.map((record) => shortIdOf(record.id)).sort()

export const shortIdOf = (id: unknown): string => {
  const text = String(id)
  const last = text.slice(text.lastIndexOf('/') + 1)
  try {
    return decodeURIComponent(last).toUpperCase()
  } catch {
    return last.toUpperCase()
  }
}

/** Flattens nested group buckets into rows of keys (last path segment, lower case) and count. */
export function flattenGroups(
  buckets: readonly GroupBucket[],
  prefix: readonly string[] = [],
): { keys: string[]; count: number }[] {
  return buckets.flatMap((bucket) => {
    const keys = [...prefix, groupKey(bucket.key)]
    return bucket.groups ? flattenGroups(bucket.groups, keys) : [{ keys, count: bucket.count }]
  })
}

/** A bucket key compared by its last path segment, lower case (`https://openalex.org/types/article` → `article`). */
export const groupKey = (key: unknown): string => {
  const text = String(key)
  const last = text.slice(text.lastIndexOf('/') + 1)
  try {
    return decodeURIComponent(last).toLowerCase()
  } catch {
    return last.toLowerCase()
  }
}

/** Bucket counts by key, from an API group_by array. */
export const bucketCounts = (buckets: readonly GroupBucket[]): Map<string, number> =>
  new Map(buckets.map((bucket) => [groupKey(bucket.key), bucket.count]))
