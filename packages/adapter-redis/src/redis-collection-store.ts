import {
  COLLECTION_LIMITS,
  CollectionError,
  type CollectionErrorCode,
  type CollectionList,
  type CollectionQuery,
  type CollectionRecord,
  type CollectionStore,
  collectionFullError,
  displayNameKey,
  isCollectionEntityType,
  writeCollectionNotFoundMessage,
} from '@oqlkit/engine'
import type { Redis } from 'ioredis'
import {
  ADD_SCRIPT,
  CREATE_SCRIPT,
  DELETE_SCRIPT,
  GET_SCRIPT,
  MEMBERS_SCRIPT,
  REMOVE_SCRIPT,
  UPDATE_SCRIPT,
} from './collection-scripts.ts'
import { RedisScript } from './redis-script.ts'

const create = new RedisScript(CREATE_SCRIPT)
const update = new RedisScript(UPDATE_SCRIPT)
const remove = new RedisScript(DELETE_SCRIPT)
const addMembers = new RedisScript(ADD_SCRIPT)
const removeMembers = new RedisScript(REMOVE_SCRIPT)
const get = new RedisScript(GET_SCRIPT)
const members = new RedisScript(MEMBERS_SCRIPT)

export interface RedisCollectionStoreOptions {
  readonly client: Redis
  /** Prefix of every key the store writes (default `oqlkit:`); tests use one per run. */
  readonly prefix?: string
}

/** How many collections a list reads per round trip while filtering. */
const LIST_BATCH = 200

const recordOf = (reply: unknown): CollectionRecord => {
  const [id, userId, entityType, displayName, description, createdAt, updatedAt, count] = reply as unknown[]
  if (typeof id !== 'string' || !isCollectionEntityType(entityType))
    throw new Error(`The collection store read a damaged record (${JSON.stringify(reply)})`)
  return {
    id,
    userId: String(userId),
    entityType,
    displayName: String(displayName),
    description: String(description ?? ''),
    entityCount: Number(count),
    createdAt: String(createdAt),
    updatedAt: String(updatedAt),
  }
}

/**
 * The error a script's refusal stands for. The messages match the in-memory state's, so a client sees
 * the same text whichever store a server uses.
 */
const refusal = (reply: readonly unknown[], id: string, name?: string): Error => {
  const [code, detail, more] = reply
  switch (code as CollectionErrorCode | 'id_taken') {
    case 'collection_not_found':
      return new CollectionError('collection_not_found', writeCollectionNotFoundMessage(id))
    case 'too_many_collections':
      return new CollectionError(
        'too_many_collections',
        `You already have ${String(detail)} collections, the most a user can have. Delete one to create another.`,
      )
    case 'display_name_duplicate':
      return new CollectionError(
        'display_name_duplicate',
        `You already have a collection named ${JSON.stringify(name)} (names are compared ignoring case). Choose another name.`,
        'display_name',
      )
    case 'collection_full':
      return collectionFullError(Number(detail))
    case 'entity_type_invalid':
      return new CollectionError(
        'entity_type_invalid',
        `entity_type can change only while the collection is empty; this one holds ${String(detail)} ${String(more)}. Remove them first, or create a new collection.`,
        'entity_type',
      )
    case 'entity_id_wrong_type':
      return new CollectionError(
        'entity_id_wrong_type',
        `The collection now holds ${String(detail)}, not the type the ids were checked against (its type changed while the request ran); nothing was added.`,
        'entity_ids',
      )
    default:
      return new Error(`The collection script refused with ${JSON.stringify(reply)}`)
  }
}

/** A script's answer: `['ok', …rest]`, or the error of its refusal thrown. */
const accepted = (reply: unknown, id: string, name?: string): unknown[] => {
  const values = reply as unknown[]
  if (values[0] !== 'ok') throw refusal(values, id, name)
  return values.slice(1)
}

/**
 * Collections on Redis, for several server processes sharing them. Each write is one Lua script
 * (`collection-scripts.ts`), so the limits (100 collections per user, 1,000 members), display-name
 * uniqueness and the type checks hold across every process at once. Reads of one collection are one
 * script too; lists read the id indexes, then the records, in batches.
 */
export const createRedisCollectionStore = (options: RedisCollectionStoreOptions): CollectionStore => {
  const { client } = options
  const base = `${options.prefix ?? 'oqlkit:'}{collections}:`
  const keys = [`${base}seq`]

  const readRecord = async (id: string): Promise<CollectionRecord | undefined> => {
    const reply = await get.run(client, keys, [base, id])
    return reply === null ? undefined : recordOf(reply)
  }

  const list = async (query: CollectionQuery): Promise<CollectionList> => {
    const index = query.userId === undefined ? `${base}all` : `${base}u:${query.userId}`
    const ids = await client.zrevrange(index, 0, -1)
    const text = query.text?.toLowerCase()
    const filtered = query.entityType !== undefined || text !== undefined || query.entityId !== undefined
    let matching = ids
    if (filtered) {
      matching = []
      for (let start = 0; start < ids.length; start += LIST_BATCH) {
        const batch = ids.slice(start, start + LIST_BATCH)
        const pipeline = client.pipeline()
        for (const id of batch) {
          pipeline.hmget(`${base}c:${id}`, 'entity_type', 'display_name', 'description')
          if (query.entityId !== undefined) pipeline.zscore(`${base}m:${id}`, query.entityId)
        }
        const replies = (await pipeline.exec()) ?? []
        const step = query.entityId === undefined ? 1 : 2
        batch.forEach((id, position) => {
          const [error, fields] = replies[position * step] ?? [null, null]
          if (error !== null && error !== undefined) throw error
          const [entityType, displayName, description] = (fields ?? []) as (string | null)[]
          if (entityType === null || entityType === undefined) return // deleted meanwhile
          if (query.entityType !== undefined && entityType !== query.entityType) return
          if (
            text !== undefined &&
            !String(displayName).toLowerCase().includes(text) &&
            !String(description ?? '')
              .toLowerCase()
              .includes(text)
          )
            return
          if (query.entityId !== undefined && (replies[position * step + 1]?.[1] ?? null) === null) return
          matching.push(id)
        })
      }
    }
    const page = matching.slice(query.offset, query.offset + query.limit)
    const records = await Promise.all(page.map(readRecord))
    return {
      total: matching.length,
      collections: records.filter((record): record is CollectionRecord => record !== undefined),
    }
  }

  return {
    create: async (draft) => {
      const reply = await create.run(client, keys, [
        base,
        draft.id,
        draft.userId,
        draft.entityType,
        draft.displayName,
        displayNameKey(draft.displayName),
        draft.description,
        draft.at,
        COLLECTION_LIMITS.collectionsPerUser,
        COLLECTION_LIMITS.entitiesPerCollection,
        ...draft.entityIds,
      ])
      if ((reply as unknown[])[0] === 'id_taken') throw new Error(`The collection id ${draft.id} is taken`)
      return recordOf(accepted(reply, draft.id, draft.displayName)[0])
    },
    get: readRecord,
    list,
    update: async (id, changes) => {
      const reply = await update.run(client, keys, [
        base,
        id,
        changes.at,
        changes.displayName === undefined ? '0' : '1',
        changes.displayName ?? '',
        changes.displayName === undefined ? '' : displayNameKey(changes.displayName),
        changes.description === undefined ? '0' : '1',
        changes.description ?? '',
        changes.entityType === undefined ? '0' : '1',
        changes.entityType ?? '',
      ])
      return recordOf(accepted(reply, id, changes.displayName)[0])
    },
    delete: async (id) => (await remove.run(client, keys, [base, id])) === 1,
    addEntities: async (id, entityIds, entityType, at) => {
      const reply = await addMembers.run(client, keys, [
        base,
        id,
        entityType,
        at,
        COLLECTION_LIMITS.entitiesPerCollection,
        ...entityIds,
      ])
      const [record, added, alreadyPresent] = accepted(reply, id)
      return { collection: recordOf(record), added: Number(added), alreadyPresent: Number(alreadyPresent) }
    },
    removeEntities: async (id, entityIds, at) => {
      const reply = await removeMembers.run(client, keys, [base, id, at, ...entityIds])
      const [record, removed, notPresent] = accepted(reply, id)
      return { collection: recordOf(record), removed: Number(removed), notPresent: Number(notPresent) }
    },
    members: async (id, offset, limit) => {
      const reply = (await members.run(client, keys, [base, id, offset, limit])) as [number, string[]] | null
      return reply === null ? undefined : { total: Number(reply[0]), ids: reply[1] }
    },
    // The client belongs to whoever made it (it may serve the key and meter stores too).
    close: async () => {},
  }
}
