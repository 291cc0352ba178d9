import {
  allowanceOf,
  type Caller,
  type ChargeOutcome,
  type ChargeReceipt,
  type CostClass,
  classRateOf,
  classRateSubject,
  costUsdOf,
  DEFAULT_METERING_LIMITS,
  fromMicroUsd,
  hashApiKey,
  type MeteringLimits,
  type PlanOptions,
  type RateRule,
  subjectOf,
  toMicroUsd,
  usageSummary,
} from '@oqlkit/engine'
import type { Middleware } from 'h3'
import { errorBody, errorResponse, jsonResponse } from '../errors/error-response.ts'
import { withEditedHeaders } from '../server/byte-responses.ts'
import { clientAddressOf } from '../server/client-address.ts'
import { responseOfNext } from '../server/next-response.ts'
import { readCredential, unknownKeyError } from './credential-reader.ts'
import { setMeteredRequest } from './metered-request.ts'
import type { MeteringOptions } from './metering-options.ts'
import { rateLimitHeaders } from './rate-limit-headers.ts'
import { priceRequest } from './request-pricing.ts'

const who = (caller: Caller): string => (caller.kind === 'key' ? 'this key' : 'this address without a key')

/** The 429 of a rejected charge: why, and when to retry (`Retry-After` and in the body). */
const tooManyRequests = (
  outcome: Extract<ChargeOutcome, { ok: false }>,
  caller: Caller,
  limits: MeteringLimits,
  headers: Record<string, string>,
  limitedClass?: CostClass,
): Response => {
  const retryAfterSeconds = Math.max(1, Math.ceil(outcome.retryAfterMs / 1000))
  const retryAt = new Date(outcome.nowMs + outcome.retryAfterMs).toISOString()
  const classRate = limitedClass === undefined ? undefined : limits.classRates[limitedClass]
  const message =
    classRate !== undefined
      ? `More than ${classRate.requests} ${limitedClass} request${classRate.requests === 1 ? '' : 's'} within ${classRate.windowMs / 1000} s from ${who(caller)} (${limitedClass === 'text' ? 'the /text endpoints' : `${limitedClass} calls`} allow ${classRate.requests} per ${classRate.windowMs / 1000} s). Retry after ${retryAfterSeconds} s.`
      : outcome.reason === 'rate_limited'
        ? `More than ${limits.requestsPerWindow} requests within ${limits.rateWindowMs / 1000} s from ${who(caller)}. Retry after ${retryAfterSeconds} s, backing off exponentially if it happens again.`
        : `The daily budget of ${who(caller)} is spent${caller.kind === 'key' ? ', and its prepaid balance cannot pay for this call' : ''}. It refills at midnight UTC (${retryAt}, in ${retryAfterSeconds} s)${caller.kind === 'key' ? '; a prepaid balance pays for calls beyond it' : '; an API key has a larger budget'}. GET /rate-limit shows what is left.`
  return jsonResponse(
    {
      ...errorBody(429, [{ error: outcome.reason, message }]),
      retry_after_seconds: retryAfterSeconds,
      retry_at: retryAt,
    },
    429,
    { ...headers, 'retry-after': String(retryAfterSeconds) },
  )
}

const withHeaders = (response: Response, headers: Record<string, string>): Response =>
  withEditedHeaders(response, (edited) => {
    for (const [name, value] of Object.entries(headers)) edited.set(name, value)
  })

/**
 * The metering middleware, around every route: it reads the caller's key (refusing invalid ones with
 * 401), prices the request, and charges it in one atomic store operation that also applies the request
 * rate; a rejected call answers 429 and is not charged. A call that fails (status 400 and up) after it
 * was charged is refunded. Every response carries the X-RateLimit headers, a refused key's too.
 */
export const meteringMiddleware = (
  options: MeteringOptions,
  logError?: (error: unknown) => void,
  /** The options the app plans with (its page cap), so that a request is priced as it will be planned. */
  planOptions: PlanOptions = {},
): Middleware => {
  const limits = options.limits ?? DEFAULT_METERING_LIMITS
  const clock = options.clock ?? Date.now
  const rate = { requests: limits.requestsPerWindow, windowMs: limits.rateWindowMs }
  return async (event, next) => {
    // The address whose anonymous budget a caller without a key uses.
    const anonymous: Caller = { kind: 'anonymous', address: clientAddressOf(event.req, options.trustProxy) }
    /**
     * The 401/400 of a refused key, with the X-RateLimit headers of the caller's address without a key
     * (and credits used 0: a refusal is never charged). The description puts the headers on every
     * response; the refused key has no budget to report (an unknown one has none at all, and reporting
     * any other figure for a key would tell a guesser which keys exist), while the address is what the
     * server does know of the caller, and its anonymous budget is what the same call would use without
     * the key. The headers are only read: a refusal charges nothing, so it cannot change any limit.
     */
    const refuse = async (error: unknown): Promise<Response> => {
      const nowMs = clock()
      const allowance = allowanceOf(anonymous, limits)
      const reading = await options.meter.read(subjectOf(anonymous), nowMs)
      return withHeaders(
        errorResponse(error, logError),
        rateLimitHeaders(usageSummary(allowance, reading.counters, reading.nowMs), 0),
      )
    }
    const credential = readCredential(event.req)
    if (credential.kind === 'refused') return refuse(credential.error)
    let caller: Caller = anonymous
    if (credential.kind === 'key') {
      const record = await options.keys.findKey(await hashApiKey(credential.key))
      if (record === undefined) return refuse(unknownKeyError())
      caller = { kind: 'key', key: record }
    }

    const costClass = await priceRequest(event.req, event.url.pathname, planOptions, event.context)
    const costMicroUsd = costClass === undefined ? 0 : toMicroUsd(costUsdOf(costClass))
    const allowance = allowanceOf(caller, limits)
    // The expensive classes' own window first, at zero cost: a call it refuses touches nothing else.
    const classRate = classRateOf(limits, costClass)
    if (classRate !== undefined && costClass !== undefined) {
      const limited = await options.meter.charge({
        subject: classRateSubject(subjectOf(caller), costClass),
        costMicroUsd: 0,
        allowance,
        rate: classRate,
        nowMs: clock(),
        requestId: crypto.randomUUID(),
      })
      if (!limited.ok) {
        const reading = await options.meter.read(subjectOf(caller), limited.nowMs)
        return tooManyRequests(
          limited,
          caller,
          limits,
          rateLimitHeaders(usageSummary(allowance, reading.counters, reading.nowMs), 0),
          costClass,
        )
      }
    }
    const requestId = crypto.randomUUID()
    // The gate's charge and a handler's later ones: the caller's, under one request id.
    const charge = (amountMicroUsd: number, chargeRate: RateRule) =>
      options.meter.charge({
        subject: subjectOf(caller),
        costMicroUsd: amountMicroUsd,
        allowance,
        rate: chargeRate,
        nowMs: clock(),
        requestId,
      })
    const overBudget = (refused: Extract<ChargeOutcome, { ok: false }>): Response =>
      tooManyRequests(
        refused,
        caller,
        limits,
        rateLimitHeaders(usageSummary(allowance, refused.counters, refused.nowMs), 0),
      )
    const outcome = await charge(costMicroUsd, rate)
    if (!outcome.ok) return overBudget(outcome)

    let { counters, nowMs } = outcome
    let charged = costMicroUsd
    // What handlers charged beyond the price at the gate (an export's rows), for the headers and refunds.
    const more: ChargeReceipt[] = []
    const refundMore = async (): Promise<void> => {
      for (const extra of more.splice(0)) {
        ;({ counters, nowMs } = await options.meter.refund(extra, clock()))
        charged -= extra.dailyMicroUsd + extra.prepaidMicroUsd
      }
    }
    setMeteredRequest(event, {
      caller,
      allowance,
      counters: outcome.counters,
      nowMs: outcome.nowMs,
      costUsd: fromMicroUsd(costMicroUsd),
      chargeMore: async (costUsd) => {
        const extraMicroUsd = toMicroUsd(costUsd)
        // The same request id, and no rate of its own: the request was already counted at the gate.
        const extra = await charge(extraMicroUsd, {
          requests: Number.MAX_SAFE_INTEGER,
          windowMs: rate.windowMs,
        })
        if (!extra.ok) return overBudget(extra)
        more.push(extra.receipt)
        ;({ counters, nowMs } = extra)
        charged += extraMicroUsd
        return undefined
      },
      refundMore: async () => {
        try {
          await refundMore()
        } catch (error) {
          ;(logError ?? console.error)(error)
        }
      },
    })
    // The API's JSON errors for what the chain throws, and for a path no route matches (the collections port).
    const response = await responseOfNext(event, next, logError)
    const { receipt } = outcome
    if (response.status >= 400) {
      try {
        await refundMore()
        if (receipt.dailyMicroUsd + receipt.prepaidMicroUsd > 0) {
          ;({ counters, nowMs } = await options.meter.refund(receipt, clock()))
          charged -= costMicroUsd
        }
      } catch (error) {
        // The call failed and stays charged; the client still gets its answer.
        ;(logError ?? console.error)(error)
      }
    }
    return withHeaders(
      response,
      rateLimitHeaders(usageSummary(allowance, counters, nowMs), fromMicroUsd(charged)),
    )
  }
}
