// The Lua scripts of the Redis collection store: each write is one script, so its checks (limits, name
// uniqueness, type) and its change are atomic across every server process sharing the Redis.
//
// A user's collections live under their own base, `<prefix>collections:{<user>}:` (the user id
// URI-encoded, so it holds no braces): the braces put all of one user's keys in one Redis Cluster slot,
// and spread different users over the cluster. Under it:
//   c:<id>         hash: id, user_id, entity_type, display_name, name_key, description, created_at,
//                  updated_at, seq, next (the last member position handed out)
//   m:<id>         zset: member ids, scored by the order they were added
//   u              zset: the user's collection ids, scored by creation order
//   n              hash: display-name key -> collection id (names unique per user)
// ARGV[1] of every script is the base; KEYS[1] is `<base>u`, naming the slot for a cluster. The keys
// shared by all users (who owns an id; every id in creation order) are the store's, outside the scripts.

const RECORD = `
local function record(base, id)
  local fields = redis.call('HMGET', base .. 'c:' .. id, 'id', 'user_id', 'entity_type', 'display_name',
    'description', 'created_at', 'updated_at')
  if not fields[1] then return false end
  fields[8] = redis.call('ZCARD', base .. 'm:' .. id)
  return fields
end
`

/**
 * ARGV: base, id, user, type, name, name key, description, at, max collections, max members, creation
 * order, ids…
 */
export const CREATE_SCRIPT = `${RECORD}
local base, id, user, etype, name, nkey, desc, at = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local maxCollections, maxMembers, seq = tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])
local count = #ARGV - 11
local key = base .. 'c:' .. id
if redis.call('EXISTS', key) == 1 then return {'id_taken'} end
local owned = redis.call('ZCARD', base .. 'u')
if owned >= maxCollections then return {'too_many_collections', owned} end
if redis.call('HEXISTS', base .. 'n', nkey) == 1 then return {'display_name_duplicate'} end
if count > maxMembers then return {'collection_full', count} end
redis.call('HSET', key, 'id', id, 'user_id', user, 'entity_type', etype, 'display_name', name, 'name_key', nkey,
  'description', desc, 'created_at', at, 'updated_at', at, 'seq', seq, 'next', count)
for i = 1, count do redis.call('ZADD', base .. 'm:' .. id, i, ARGV[11 + i]) end
redis.call('ZADD', base .. 'u', seq, id)
redis.call('HSET', base .. 'n', nkey, id)
return {'ok', record(base, id)}
`

/** ARGV: base, id, at, has name, name, name key, has description, description, has type, type. */
export const UPDATE_SCRIPT = `${RECORD}
local base, id, at = ARGV[1], ARGV[2], ARGV[3]
local hasName, name, nkey = ARGV[4] == '1', ARGV[5], ARGV[6]
local hasDesc, desc = ARGV[7] == '1', ARGV[8]
local hasType, etype = ARGV[9] == '1', ARGV[10]
local key = base .. 'c:' .. id
local current = redis.call('HMGET', key, 'user_id', 'name_key', 'entity_type')
if not current[1] then return {'collection_not_found'} end
local oldKey, oldType = current[2], current[3]
if hasName then
  local holder = redis.call('HGET', base .. 'n', nkey)
  if holder and holder ~= id then return {'display_name_duplicate'} end
end
if hasType and etype ~= oldType then
  local members = redis.call('ZCARD', base .. 'm:' .. id)
  if members > 0 then return {'entity_type_invalid', members, oldType} end
end
if hasName then
  redis.call('HDEL', base .. 'n', oldKey)
  redis.call('HSET', base .. 'n', nkey, id)
  redis.call('HSET', key, 'display_name', name, 'name_key', nkey)
end
if hasDesc then redis.call('HSET', key, 'description', desc) end
if hasType then redis.call('HSET', key, 'entity_type', etype) end
redis.call('HSET', key, 'updated_at', at)
return {'ok', record(base, id)}
`

/** ARGV: base, id. Answers 1 when it deleted, 0 when there was nothing. */
export const DELETE_SCRIPT = `
local base, id = ARGV[1], ARGV[2]
local key = base .. 'c:' .. id
local current = redis.call('HMGET', key, 'user_id', 'name_key')
if not current[1] then return 0 end
redis.call('DEL', key, base .. 'm:' .. id)
redis.call('ZREM', base .. 'u', id)
if redis.call('HGET', base .. 'n', current[2]) == id then redis.call('HDEL', base .. 'n', current[2]) end
return 1
`

/** ARGV: base, id, expected type, at, max members, ids… */
export const ADD_SCRIPT = `${RECORD}
local base, id, etype, at, maxMembers = ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
local key = base .. 'c:' .. id
local members = base .. 'm:' .. id
local current = redis.call('HGET', key, 'entity_type')
if not current then return {'collection_not_found'} end
if current ~= etype then return {'entity_id_wrong_type', current} end
local fresh, seen, already = {}, {}, 0
for i = 6, #ARGV do
  local member = ARGV[i]
  if not seen[member] then
    seen[member] = true
    if redis.call('ZSCORE', members, member) then already = already + 1 else fresh[#fresh + 1] = member end
  end
end
local total = redis.call('ZCARD', members) + #fresh
if total > maxMembers then return {'collection_full', total} end
if #fresh > 0 then
  local position = tonumber(redis.call('HGET', key, 'next'))
  for i, member in ipairs(fresh) do redis.call('ZADD', members, position + i, member) end
  redis.call('HSET', key, 'next', position + #fresh, 'updated_at', at)
end
return {'ok', record(base, id), #fresh, already}
`

/** ARGV: base, id, at, ids… */
export const REMOVE_SCRIPT = `${RECORD}
local base, id, at = ARGV[1], ARGV[2], ARGV[3]
local key = base .. 'c:' .. id
if redis.call('EXISTS', key) == 0 then return {'collection_not_found'} end
local seen, removed, absent = {}, 0, 0
for i = 4, #ARGV do
  local member = ARGV[i]
  if not seen[member] then
    seen[member] = true
    if redis.call('ZREM', base .. 'm:' .. id, member) == 1 then removed = removed + 1 else absent = absent + 1 end
  end
end
if removed > 0 then redis.call('HSET', key, 'updated_at', at) end
return {'ok', record(base, id), removed, absent}
`

/** ARGV: base, id. The record, or nil. */
export const GET_SCRIPT = `${RECORD}
return record(ARGV[1], ARGV[2])
`

/** ARGV: base, id, offset, limit. {total, ids} or nil. */
export const MEMBERS_SCRIPT = `
local base, id, offset, limit = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
if redis.call('EXISTS', base .. 'c:' .. id) == 0 then return false end
local members = base .. 'm:' .. id
local ids = {}
if limit > 0 then ids = redis.call('ZRANGE', members, offset, offset + limit - 1) end
return {redis.call('ZCARD', members), ids}
`

/**
 * On the store's shared slot: KEYS[1] the creation counter, KEYS[2] the index of every id. ARGV: id.
 * Hands out the next creation order and indexes the id by it; the order is the score the user's own
 * index gets too, so both list newest first alike.
 */
export const INDEX_SCRIPT = `
local seq = redis.call('INCR', KEYS[1])
redis.call('ZADD', KEYS[2], seq, ARGV[1])
return seq
`
