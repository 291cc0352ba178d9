// `GET|POST /text`, `/text/keywords`, `/text/concepts` and the deprecated `/text/topics`: tag a title and
// abstract with the catalog's labels, through the `Tagger` the app was given (trained from the catalog at
// ingest). `/text` gives keywords and concepts; each single route gives one list with `meta.count`.
import { costUsdOf, type Tagger, type TagKind } from '@oqlkit/engine'
import type { H3Event } from 'h3'
import { ApiError } from '../errors/api-error.ts'
import { readTaggingInput } from '../request/text-tagging-input-reader.ts'

export type TextTaggingRoute = 'all' | 'keywords' | 'concepts' | 'topics'

export const TEXT_TOPICS_DEPRECATION_WARNING =
  '/text/topics is deprecated and may be removed; use /text/keywords (or /text for keywords and concepts).'

const pathOf = (route: TextTaggingRoute): string => (route === 'all' ? '/text' : `/text/${route}`)

const unavailable = (): ApiError =>
  ApiError.of(
    501,
    'tagger_unavailable',
    'This catalog has no text-tagging model: it was ingested without one or by an older version. Re-ingest it (oqlkit ingest) to train the model from its works.',
  )

export const textTaggingHandler =
  (tagger: Tagger | undefined, route: TextTaggingRoute) =>
  async (event: H3Event): Promise<unknown> => {
    const path = pathOf(route)
    const input = await readTaggingInput(event.req, path)
    if (tagger === undefined) throw unavailable()
    const tags = (kind: TagKind) => tagger.tag(input, kind)
    const cost_usd = costUsdOf('text')
    if (route === 'all') {
      const [keywords, concepts] = await Promise.all([tags('keywords'), tags('concepts')])
      return {
        meta: { keywords_count: keywords.length, concepts_count: concepts.length, cost_usd },
        keywords,
        concepts,
      }
    }
    if (route === 'topics') {
      if (!tagger.kinds.includes('topics')) throw unavailable()
      event.res.headers.set('deprecation', 'true')
      event.res.headers.set('link', '</text/keywords>; rel="successor-version"')
      const topics = await tags('topics')
      return { meta: { count: topics.length, cost_usd }, topics, warning: TEXT_TOPICS_DEPRECATION_WARNING }
    }
    const list = await tags(route)
    return { meta: { count: list.length, cost_usd }, [route]: list }
  }
