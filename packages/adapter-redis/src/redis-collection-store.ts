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
import {
  ADD_SCRIPT,
  CREATE_SCRIPT,
  DELETE_SCRIPT,
  GET_SCRIPT,
  INDEX_SCRIPT,
  MEMBERS_SCRIPT,
  REMOVE_SCRIPT,
  UPDATE_SCRIPT,
} from './collection-scripts.ts'
import { DEFAULT_KEY_PREFIX, type RedisClient, type RedisStoreOptions } from './redis-connection.ts'
import { RedisScript } from './redis-script.ts'

const create = new RedisScript(CREATE_SCRIPT)
const update = new RedisScript(UPDATE_SCRIPT)
const remove = new RedisScript(DELETE_SCRIPT)
const addMembers = new RedisScript(ADD_SCRIPT)
const removeMembers = new RedisScript(REMOVE_SCRIPT)
const get = new RedisScript(GET_SCRIPT)
const members = new RedisScript(MEMBERS_SCRIPT)
const index = new RedisScript(INDEX_SCRIPT)

export type RedisCollectionStoreOptions = RedisStoreOptions

/** How many collections a list reads at once while filtering. */
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

/** A collection id and the base of its owner's keys. */
interface Located {
  readonly id: string
  readonly base: string
}

/**
 * Collections on Redis or a Redis Cluster, for several server processes sharing them. Each write is one
 * Lua script (`collection-scripts.ts`) on its user's keys, which share one cluster slot, so the limits
 * (100 collections per user, 1,000 members), display-name uniqueness and the type checks hold across
 * every process at once, and users spread over the cluster's nodes.
 *
 * Two kinds of keys are shared by all users: `<prefix>collection-owner:<id>` says whose an id is (an
 * operation on a collection reads it first, then runs its script on that user's slot), and the slot
 * `<prefix>{collections}:` holds the creation counter and the index of every id, for the admin's list.
 * A create claims the id's owner first and indexes it before storing the collection; a delete removes
 * the collection first and both afterwards. So a process that dies between the steps leaves at most an
 * owner or index entry without a collection, which every read treats as absent, never a collection
 * without them.
 */
export const createRedisCollectionStore = (options: RedisCollectionStoreOptions): CollectionStore => {
  const { client } = options
  const prefix = options.prefix ?? DEFAULT_KEY_PREFIX
  const indexKeys = [`${prefix}{collections}:seq`, `${prefix}{collections}:all`]
  const everyId = indexKeys[1]!
  const ownerKey = (id: string) => `${prefix}collection-owner:${id}`
  // URI-encoded, a user id holds no brace to cut the hash tag short and no colon to blur the key's parts.
  const baseOf = (userId: string) => `${prefix}collections:{${encodeURIComponent(userId)}}:`
  const slotOf = (base: string) => [`${base}u`]

  const locate = async (id: string): Promise<Located | undefined> => {
    const owner = await client.get(ownerKey(id))
    return owner === null ? undefined : { id, base: baseOf(owner) }
  }

  const readAt = async ({ id, base }: Located): Promise<CollectionRecord | undefined> => {
    const reply = await get.run(client, slotOf(base), [base, id])
    return reply === null ? undefined : recordOf(reply)
  }

  /** Runs an operation on the collection's slot, or throws `collection_not_found` when it has no owner. */
  const onOwnerOf = async <T>(id: string, operation: (located: Located) => Promise<T>): Promise<T> => {
    const located = await locate(id)
    if (located === undefined)
      throw new CollectionError('collection_not_found', writeCollectionNotFoundMessage(id))
    return operation(located)
  }

  /** Every indexed id whose owner is known, newest first. */
  const everyCollection = async (): Promise<Located[]> => {
    const ids = await client.zrevrange(everyId, 0, -1)
    const located: Located[] = []
    for (let start = 0; start < ids.length; start += LIST_BATCH) {
      const found = await Promise.all(ids.slice(start, start + LIST_BATCH).map(locate))
      for (const entry of found) if (entry !== undefined) located.push(entry)
    }
    return located
  }

  /** Whether a collection exists and meets the query's conditions. */
  const meets = async ({ id, base }: Located, query: CollectionQuery, text: string | undefined) => {
    const [fields, score] = await Promise.all([
      client.hmget(`${base}c:${id}`, 'entity_type', 'display_name', 'description'),
      query.entityId === undefined ? 'unasked' : client.zscore(`${base}m:${id}`, query.entityId),
    ])
    const [entityType, displayName, description] = fields
    if (entityType === null || entityType === undefined) return false // deleted meanwhile
    if (query.entityType !== undefined && entityType !== query.entityType) return false
    if (
      text !== undefined &&
      !String(displayName).toLowerCase().includes(text) &&
      !String(description ?? '')
        .toLowerCase()
        .includes(text)
    )
      return false
    return score !== null
  }

  const list = async (query: CollectionQuery): Promise<CollectionList> => {
    const text = query.text?.toLowerCase()
    let candidates: Located[]
    if (query.userId === undefined) candidates = await everyCollection()
    else {
      const base = baseOf(query.userId)
      candidates = (await client.zrevrange(`${base}u`, 0, -1)).map((id) => ({ id, base }))
    }
    // A user's index changes with their collections in one script; the shared index may name an id
    // whose create or delete was cut short, so its entries are always checked.
    const checked =
      query.userId === undefined ||
      query.entityType !== undefined ||
      text !== undefined ||
      query.entityId !== undefined
    let matching = candidates
    if (checked) {
      matching = []
      for (let start = 0; start < candidates.length; start += LIST_BATCH) {
        const batch = candidates.slice(start, start + LIST_BATCH)
        const verdicts = await Promise.all(batch.map((entry) => meets(entry, query, text)))
        batch.forEach((entry, position) => {
          if (verdicts[position]) matching.push(entry)
        })
      }
    }
    const page = matching.slice(query.offset, query.offset + query.limit)
    const records = await Promise.all(page.map(readAt))
    return {
      total: matching.length,
      collections: records.filter((record): record is CollectionRecord => record !== undefined),
    }
  }

  /** Undoes a create's claim and index entry (best effort: what stays is read as absent). */
  const release = async (id: string) => {
    await Promise.all([client.zrem(everyId, id), client.del(ownerKey(id))]).catch(() => undefined)
  }

  return {
    create: async (draft) => {
      if ((await client.set(ownerKey(draft.id), draft.userId, 'NX')) === null)
        throw new Error(`The collection id ${draft.id} is taken`)
      let stored = false
      try {
        const seq = await index.run(client, indexKeys, [draft.id])
        const base = baseOf(draft.userId)
        const reply = await create.run(client, slotOf(base), [
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
          Number(seq),
          ...draft.entityIds,
        ])
        if ((reply as unknown[])[0] === 'id_taken') throw new Error(`The collection id ${draft.id} is taken`)
        const record = recordOf(accepted(reply, draft.id, draft.displayName)[0])
        stored = true
        return record
      } finally {
        if (!stored) await release(draft.id)
      }
    },
    get: async (id) => {
      const located = await locate(id)
      return located === undefined ? undefined : readAt(located)
    },
    list,
    update: (id, changes) =>
      onOwnerOf(id, async ({ base }) => {
        const reply = await update.run(client, slotOf(base), [
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
      }),
    delete: async (id) => {
      const located = await locate(id)
      if (located === undefined) return false
      const deleted = (await remove.run(client, slotOf(located.base), [located.base, id])) === 1
      // Also after a create cut short (an owner without a collection): the id is released either way.
      await Promise.all([client.zrem(everyId, id), client.del(ownerKey(id))])
      return deleted
    },
    addEntities: (id, entityIds, entityType, at) =>
      onOwnerOf(id, async ({ base }) => {
        const reply = await addMembers.run(client, slotOf(base), [
          base,
          id,
          entityType,
          at,
          COLLECTION_LIMITS.entitiesPerCollection,
          ...entityIds,
        ])
        const [record, added, alreadyPresent] = accepted(reply, id)
        return { collection: recordOf(record), added: Number(added), alreadyPresent: Number(alreadyPresent) }
      }),
    removeEntities: (id, entityIds, at) =>
      onOwnerOf(id, async ({ base }) => {
        const reply = await removeMembers.run(client, slotOf(base), [base, id, at, ...entityIds])
        const [record, removed, notPresent] = accepted(reply, id)
        return { collection: recordOf(record), removed: Number(removed), notPresent: Number(notPresent) }
      }),
    members: async (id, offset, limit) => {
      const located = await locate(id)
      if (located === undefined) return undefined
      const reply = (await members.run(client, slotOf(located.base), [located.base, id, offset, limit])) as
        | [number, string[]]
        | null
      return reply === null ? undefined : { total: Number(reply[0]), ids: reply[1] }
    },
    // The client belongs to whoever made it (it may serve the key and meter stores too).
    close: async () => {},
  }
}

/**
 * Moves collections stored by oqlkit 0.1 (every key in the one slot `<prefix>{collections}:`) to the
 * per-user layout, and answers how many it moved. Each step can be repeated, and the old keys go last, so
 * a move cut short is finished by the next call; `oqlkit serve --redis` calls it at start. A server of the
 * old version must not write meanwhile.
 */
export const migrateLegacyCollections = async (
  client: RedisClient,
  prefix = DEFAULT_KEY_PREFIX,
): Promise<number> => {
  const legacy = `${prefix}{collections}:`
  const ids = await client.zrange(`${legacy}all`, '0', '-1', 'WITHSCORES')
  let moved = 0
  for (let i = 0; i < ids.length; i += 2) {
    const id = ids[i]!
    const seq = Number(ids[i + 1])
    const record = await client.hgetall(`${legacy}c:${id}`)
    const userId = record.user_id
    if (userId === undefined) continue // already moved, or not a legacy collection
    const base = `${prefix}collections:{${encodeURIComponent(userId)}}:`
    const members = await client.zrange(`${legacy}m:${id}`, '0', '-1', 'WITHSCORES')
    await client.set(`${prefix}collection-owner:${id}`, userId)
    const write = client.multi()
    write.hset(`${base}c:${id}`, record)
    // ZRANGE answers member, score pairs; ZADD takes score, member.
    const scored: string[] = []
    for (let at = 0; at < members.length; at += 2) scored.push(members[at + 1]!, members[at]!)
    if (scored.length > 0) write.zadd(`${base}m:${id}`, ...scored)
    write.zadd(`${base}u`, seq, id)
    if (record.name_key !== undefined) write.hset(`${base}n`, record.name_key, id)
    await write.exec()
    const forget = client.multi()
    forget.del(`${legacy}c:${id}`, `${legacy}m:${id}`)
    forget.zrem(`${legacy}u:${userId}`, id)
    if (record.name_key !== undefined) forget.hdel(`${legacy}n:${userId}`, record.name_key)
    await forget.exec()
    moved++
  }
  return moved
}
