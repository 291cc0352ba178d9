// The Lua transcription of the engine's metering rule (`decideCharge`, `refundCounters`, `countersOn`
// in @oqlkit/engine). Each script runs atomically in Redis: no other command, from any server process,
// runs between its reads and its writes. The shared conformance suite checks every answer against the
// engine's own ledger, so the two cannot drift apart unnoticed.
//
// Per subject: KEYS[1] is a hash {day, daily, prepaid} (micro-dollars; `daily` belongs to `day`, a UTC
// day number) and KEYS[2] a sorted set of the requests accepted in the rate window, scored by time.
// ARGV[1] is the moment in epoch ms, or -1 to use Redis's own clock (TIME), which every server process
// shares. Amounts are whole micro-dollars, exact in Lua's doubles.

const CLOCK = `
local now = tonumber(ARGV[1])
if now < 0 then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local DAY = 86400000
local today = math.floor(now / DAY)
`

// Counters rolled to today (countersOn): yesterday's daily spending no longer counts.
const READ_COUNTERS = `
local stored = redis.call('HMGET', KEYS[1], 'day', 'daily', 'prepaid')
local dailyUsed = 0
if stored[1] and tonumber(stored[1]) == today then dailyUsed = tonumber(stored[2]) or 0 end
local prepaidUsed = tonumber(stored[3]) or 0
`

// A day's spending expires a day after the day ends (margin for clocks); prepaid spending never does.
const SET_EXPIRY = `
local function setExpiry(day, prepaid)
  if prepaid == 0 then
    redis.call('PEXPIRE', KEYS[1], math.max(1, (day + 2) * DAY - now))
  else
    redis.call('PERSIST', KEYS[1])
  end
end
`

/**
 * Check-and-charge. ARGV[2..8]: cost, daily budget, prepaid credited, prepaid expiry (epoch ms, -1
 * for never), requests per window, window ms, request id. Returns {accepted (1/0), reason,
 * retryAfterMs, day, dailyUsed, prepaidUsed, now, dailyPart, prepaidPart}; a rejection writes nothing.
 */
export const CHARGE_SCRIPT = `${CLOCK}${READ_COUNTERS}${SET_EXPIRY}
local cost = tonumber(ARGV[2])
local dailyBudget = tonumber(ARGV[3])
local prepaidCredited = tonumber(ARGV[4])
local expiresAt = tonumber(ARGV[5])
local limit = tonumber(ARGV[6])
local window = tonumber(ARGV[7])

redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
if redis.call('ZCARD', KEYS[2]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  local oldestAt = now
  if oldest[2] then oldestAt = tonumber(oldest[2]) end
  return {0, 'rate_limited', math.max(1, oldestAt + window - now), today, dailyUsed, prepaidUsed, now, 0, 0}
end

local dailyPart = math.min(cost, math.max(0, dailyBudget - dailyUsed))
local prepaidPart = cost - dailyPart
local prepaidAvailable = 0
if expiresAt < 0 or now < expiresAt then prepaidAvailable = math.max(0, prepaidCredited - prepaidUsed) end
if prepaidPart > prepaidAvailable then
  return {0, 'budget_exhausted', math.max(1, (today + 1) * DAY - now), today, dailyUsed, prepaidUsed, now, 0, 0}
end

redis.call('ZADD', KEYS[2], now, ARGV[8])
redis.call('PEXPIRE', KEYS[2], window + 60000)
if cost > 0 then
  dailyUsed = dailyUsed + dailyPart
  prepaidUsed = prepaidUsed + prepaidPart
  redis.call('HSET', KEYS[1], 'day', today, 'daily', dailyUsed, 'prepaid', prepaidUsed)
  setExpiry(today, prepaidUsed)
end
return {1, 'ok', 0, today, dailyUsed, prepaidUsed, now, dailyPart, prepaidPart}
`

/**
 * Refund (refundCounters): gives back a receipt's parts, the daily part only if the stored counters are
 * still of the receipt's day. ARGV[2..4]: receipt day, daily part, prepaid part. Returns the counters
 * read afterwards, as READ_SCRIPT does.
 */
export const REFUND_SCRIPT = `${CLOCK}${SET_EXPIRY}
local receiptDay = tonumber(ARGV[2])
local dailyPart = tonumber(ARGV[3])
local prepaidPart = tonumber(ARGV[4])
local before = redis.call('HMGET', KEYS[1], 'day', 'daily', 'prepaid')
if before[1] and dailyPart + prepaidPart > 0 then
  local storedDay = tonumber(before[1])
  local daily = tonumber(before[2]) or 0
  if storedDay == receiptDay then daily = math.max(0, daily - dailyPart) end
  local prepaid = math.max(0, (tonumber(before[3]) or 0) - prepaidPart)
  redis.call('HSET', KEYS[1], 'daily', daily, 'prepaid', prepaid)
  setExpiry(storedDay, prepaid)
end
${READ_COUNTERS}
return {now, today, dailyUsed, prepaidUsed}
`

/** The counters rolled to today, with the moment they were read. Returns {now, day, dailyUsed, prepaidUsed}. */
export const READ_SCRIPT = `${CLOCK}${READ_COUNTERS}
return {now, today, dailyUsed, prepaidUsed}
`
