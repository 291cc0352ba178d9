import { type CollectionList, type CollectionRecord, entityIdUrl } from '@oqlkit/engine'

/** A collection as the API shows it. */
export const collectionResource = (record: CollectionRecord) => ({
  id: record.id,
  user_id: record.userId,
  entity_type: record.entityType,
  display_name: record.displayName,
  description: record.description,
  entity_count: record.entityCount,
  created_at: record.createdAt,
  updated_at: record.updatedAt,
})

/** The `meta` of a page: where it is, and how many there are in all. */
export const pageMeta = (page: number, perPage: number, total: number) => ({
  page,
  per_page: perPage,
  total_count: total,
  total_pages: Math.ceil(total / perPage),
})

/** A page of collections: `meta` and `results`. */
export const collectionPage = (list: CollectionList, page: number, perPage: number) => ({
  meta: pageMeta(page, perPage, list.total),
  results: list.collections.map(collectionResource),
})

/** A collection with one page of its members, as full id URLs in the order they were added. */
export const collectionEntitiesPage = (
  record: CollectionRecord,
  ids: readonly string[],
  page: number,
  perPage: number,
  idBase?: string,
) => ({
  ...collectionResource(record),
  entity_ids: ids.map((id) => entityIdUrl(id, idBase)),
  meta: pageMeta(page, perPage, record.entityCount),
})
