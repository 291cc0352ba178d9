// A list request is read and planned once: the metering middleware prices what it read and keeps it in the
// event's context, where the list handler takes it.
import { priceRequest } from '@oqlkit/http'
import type { H3EventContext } from 'h3'
import { describe, expect, it } from 'vitest'
import { readListOnce } from '../src/request/list-reading.ts'

const URL_OF = (query: string) => `http://localhost/works${query}`

describe('readListOnce', () => {
  it('reads and plans a list once per context, and gives the held reading to the next caller', () => {
    const context: H3EventContext = {}
    const planOptions = {}
    const first = readListOnce(
      context,
      'works',
      URL_OF('?filter=is_oa:true&sort=cited_by_count:desc'),
      planOptions,
    )
    expect(first.reading.ok).toBe(true)
    expect(first.planning?.ok).toBe(true)
    const second = readListOnce(
      context,
      'works',
      URL_OF('?filter=is_oa:true&sort=cited_by_count:desc'),
      planOptions,
    )
    expect(second).toBe(first)
  })

  it('reads again for another URL, entity or plan options, and without a context', () => {
    const context: H3EventContext = {}
    const planOptions = {}
    const first = readListOnce(context, 'works', URL_OF('?sort=cited_by_count:desc'), planOptions)
    expect(readListOnce(context, 'works', URL_OF('?sort=publication_year'), planOptions)).not.toBe(first)
    const held = readListOnce(context, 'works', URL_OF(''), planOptions)
    expect(readListOnce(context, 'authors', URL_OF(''), planOptions)).not.toBe(held)
    const authors = readListOnce(context, 'authors', URL_OF(''), planOptions)
    expect(readListOnce(context, 'authors', URL_OF(''), { maxPerPage: 50 })).not.toBe(authors)
    expect(readListOnce(undefined, 'works', URL_OF(''), planOptions)).not.toBe(
      readListOnce(undefined, 'works', URL_OF(''), planOptions),
    )
  })

  it('does not plan a request that does not read, and keeps its problems for the handler', () => {
    const read = readListOnce({}, 'works', URL_OF('?page=two'), {})
    expect(read.planning).toBeUndefined()
    expect(read.reading.ok ? [] : read.reading.problems.map((problem) => problem.error)).toEqual([
      'invalid_page',
    ])
  })
})

describe('priceRequest with the event context', () => {
  it('prices a list from the reading it keeps in the context for the handler', async () => {
    const context: H3EventContext = {}
    const planOptions = {}
    const request = new Request(URL_OF('?search=climate'))
    expect(await priceRequest(request, '/works', planOptions, context)).toBe('search')
    const kept = Object.values(context)
    expect(kept).toHaveLength(1)
    expect(readListOnce(context, 'works', request.url, planOptions)).toBe(kept[0])
  })
})
