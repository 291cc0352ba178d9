import {
  canonicalizeOqo,
  type LeafFilter,
  type Oqo,
  type OqoDiagnostic,
  propertiesRegistry,
  resolveEntityType,
  suggestVocabularyCode,
  validateOqo,
} from '@oqlkit/oqo-schema'
import {
  lineColumnOf,
  type OqlDiagnostic,
  type ProblemReport,
  type Span,
  toDiagnostic,
} from '../diagnostics/oql-diagnostic.ts'
import { applyOqlEdits, type OqlQuickFix, replaceSpan } from '../diagnostics/oql-quick-fix.ts'
import { clauseAddressOf } from '../printer/clause-address.ts'
import { queryParser } from './oql-grammar.ts'
import type { LexedOql } from './oql-lexer.ts'
import { writeUnclosedParenMessage, writeUnopenedParenMessage } from './oql-message-writers.ts'
import type { QueryNode } from './oql-syntax.ts'
import { lowerQuery } from './syntax-to-oqo.ts'
import { lexedOf } from './token-parsers.ts'

/** The outcome of parsing OQL text: the canonical OQO (in the user's operand order), or why not. */
export type ParseResult =
  | { readonly ok: true; readonly oqo: Oqo; readonly warnings: readonly OqlDiagnostic[] }
  | {
      readonly ok: false
      readonly diagnostics: readonly OqlDiagnostic[]
      /** When the text parsed but the object fails validation: the object, for reporting. */
      readonly oqo?: Oqo
    }

/** The syntax tree of a text, or the problem that kept the grammar from reading it. */
export interface SyntaxParse {
  readonly lexed: LexedOql
  readonly tree?: QueryNode
  readonly problem?: ProblemReport
}

// Parsimmon recurses once per nesting level; no real query nests anywhere near this deep.
export const MAX_NESTING = 64

const wholeText = (text: string): Span => ({ start: 0, end: text.length })

/**
 * The first `)` that closes nothing, or the end of a text that leaves a `(` open: what the grammar
 * would report, found from the tokens alone for a text nested too deep to parse, so that the specific
 * OQL_UNBALANCED_PARENS wins over the catch-all there too.
 */
const unbalancedParenthesis = (lexed: LexedOql): ProblemReport | undefined => {
  let depth = 0
  for (const token of lexed.tokens) {
    if (token.kind === 'lparen') depth++
    else if (token.kind === 'rparen') {
      if (depth === 0)
        return {
          code: 'OQL_UNBALANCED_PARENS',
          span: { start: token.start, end: token.end },
          ...writeUnopenedParenMessage(),
        }
      depth--
    } else if (token.kind === 'end' && depth > 0)
      return {
        code: 'OQL_UNBALANCED_PARENS',
        span: { start: token.start, end: token.start },
        ...writeUnclosedParenMessage(undefined),
      }
  }
  return undefined
}

/** Reads OQL text into its syntax tree. Never throws. */
export const parseOqlSyntax = (text: string): SyntaxParse => {
  const lexed = lexedOf(text)
  if (lexed.error !== undefined) return { lexed, problem: lexed.error }
  if (lexed.depth > MAX_NESTING)
    return {
      lexed,
      problem: unbalancedParenthesis(lexed) ?? {
        code: 'OQL_PARSE_ERROR',
        span: wholeText(text),
        problem: `Parentheses nest ${lexed.depth} deep (at most ${MAX_NESTING})`,
        fix: 'Flatten the query: and/or runs need no parentheses of their own.',
      },
    }
  const result = queryParser.parse(text)
  if (result.status) return { lexed, tree: result.value }
  // The grammar reads any token sequence; this is a safety net, not a path the corpus takes.
  const at = Math.min(result.index.offset, text.length)
  return {
    lexed,
    problem: {
      code: 'OQL_PARSE_ERROR',
      span: { start: at, end: at },
      problem: `The query cannot be read here; expected ${result.expected.join(', ')}`,
    },
  }
}

interface Analysis {
  readonly problems: readonly ProblemReport[]
  readonly oqo?: Oqo
  readonly locate?: (path: string) => Span | undefined
}

const internalError = (text: string, error: unknown): ProblemReport => ({
  code: 'OQL_PARSE_ERROR',
  span: wholeText(text),
  problem: `The query could not be parsed (${error instanceof Error ? error.message : String(error)})`,
})

const byPosition = (a: ProblemReport, b: ProblemReport): number => a.span.start - b.span.start

// Text no rule could place is reported as trailing by the query too, while the rule that stopped there
// (a group still open, an adjacent condition) says what is wrong with it: at one spot, that one stands.
const mostSpecific = (problems: readonly ProblemReport[]): ProblemReport[] =>
  problems.filter(
    (problem) =>
      problem.code !== 'OQL_TRAILING_TOKENS' ||
      !problems.some(
        (other) => other.code !== 'OQL_TRAILING_TOKENS' && other.span.start === problem.span.start,
      ),
  )

/** Every problem of the text, in text order (first the lexical one, which stops everything). */
const analyze = (text: string): Analysis => {
  try {
    const syntax = parseOqlSyntax(text)
    if (syntax.tree === undefined) return { problems: [syntax.problem ?? internalError(text, 'no tree')] }
    const lowered = lowerQuery(syntax.tree)
    const problems = mostSpecific(lowered.problems).sort(byPosition)
    return lowered.oqo === undefined ? { problems } : { problems, oqo: lowered.oqo, locate: lowered.locate }
  } catch (error) {
    // Defensive: the grammar and lowering are total, so reaching this is a bug to fix, not an answer.
    return { problems: [internalError(text, error)] }
  }
}

const lastSentence = (message: string): string => {
  const sentences = message.match(/[^.?!]+[.?!]+(?=\s|$)/g)
  return sentences?.at(-1)?.trim() ?? message
}

/** The node at a JSON path of the OQO (`filter_rows[0].filters[1]`). */
const nodeAt = (oqo: Oqo, path: string): unknown => {
  let node: unknown = oqo
  for (const [, name, index] of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[name ?? index ?? '']
  }
  return node
}

/**
 * A code not in its vocabulary (`type is artcle`): the fix names the code it is closest to, which
 * replaces the value as written (quotes and all). Other validation fixes need the user's judgement.
 */
const validationQuickFixes = (
  oqo: Oqo | undefined,
  diagnostic: OqoDiagnostic,
  span: Span | undefined,
): OqlQuickFix[] => {
  if (oqo === undefined || span === undefined || diagnostic.code !== 'invalid_value') return []
  if (!diagnostic.path.endsWith('.value')) return []
  const leaf = nodeAt(oqo, diagnostic.path.slice(0, -'.value'.length)) as Partial<LeafFilter> | undefined
  if (typeof leaf?.column_id !== 'string' || typeof leaf.value !== 'string') return []
  const entity = resolveEntityType(oqo.get_rows)
  if (entity === undefined) return []
  const valueEntity = propertiesRegistry.resolveColumn(entity, leaf.column_id)?.valueEntity
  const code = valueEntity == null ? undefined : suggestVocabularyCode(valueEntity, leaf.value)
  return code === undefined ? [] : [replaceSpan(span, code, `Change to ${code}`)]
}

const fromValidation = (
  text: string,
  diagnostic: OqoDiagnostic,
  locate: ((path: string) => Span | undefined) | undefined,
  oqo?: Oqo,
): OqlDiagnostic => {
  const located = locate?.(diagnostic.path)
  const span = located ?? wholeText(text)
  const { line, column } = lineColumnOf(text, span.start)
  const placed: OqlDiagnostic = {
    code: diagnostic.code,
    severity: diagnostic.severity,
    message: diagnostic.message,
    fix: lastSentence(diagnostic.message),
    position: span.start,
    span,
    line,
    column,
    path: diagnostic.path,
  }
  const quickFixes = validationQuickFixes(oqo, diagnostic, located)
  return quickFixes.length === 0 ? placed : { ...placed, quickFixes }
}

// Quick fixes are checked by applying them: a site proposes the edit its fix text describes, and only one
// that leaves the text with fewer problems is offered (`publicaton year` is not mended by `publication_year
// year`, though the closest name to `publicaton` is `publication_year`). Each check is one more parse, so
// long texts and texts with many fixes are offered none rather than slowed down.
const MAX_CHECKED_TEXT = 4_000
const MAX_CHECKED_FIXES = 16

/** The problems of a text: its parse problems, or when it parses, its validation errors. */
const problemCount = (text: string): number => {
  const analysis = analyze(text)
  if (analysis.problems.length > 0 || analysis.oqo === undefined) return Math.max(analysis.problems.length, 1)
  try {
    return validateOqo(analysis.oqo).errors.length
  } catch {
    return Number.POSITIVE_INFINITY
  }
}

const withoutQuickFixes = ({ quickFixes: _dropped, ...diagnostic }: OqlDiagnostic): OqlDiagnostic =>
  diagnostic

/** The diagnostics with only the quick fixes that leave fewer problems (and none past the limits). */
const checkQuickFixes = (text: string, diagnostics: readonly OqlDiagnostic[]): OqlDiagnostic[] => {
  const proposed = diagnostics.reduce((count, diagnostic) => count + (diagnostic.quickFixes?.length ?? 0), 0)
  if (proposed === 0) return [...diagnostics]
  if (text.length > MAX_CHECKED_TEXT || proposed > MAX_CHECKED_FIXES)
    return diagnostics.map(withoutQuickFixes)
  const before = problemCount(text)
  return diagnostics.map((diagnostic) => {
    if (diagnostic.quickFixes === undefined) return diagnostic
    const kept = diagnostic.quickFixes.filter((fix) => problemCount(applyOqlEdits(text, fix.edits)) < before)
    return kept.length === 0 ? withoutQuickFixes(diagnostic) : { ...diagnostic, quickFixes: kept }
  })
}

const notText = (input: unknown): ParseResult => ({
  ok: false,
  diagnostics: [
    toDiagnostic('', {
      code: 'OQL_PARSE_ERROR',
      span: { start: 0, end: 0 },
      problem: `OQL must be a string (was ${input === null ? 'null' : typeof input})`,
      fix: 'Send the query as text, e.g. works where year is (2020).',
    }),
  ],
})

/**
 * Parses OQL text into its canonical OQO, keeping the user's order of clauses and values (§1,
 * decision 30). Fails fast like the reference: the first parse error in text order, or every
 * validation error of the parsed object. Never throws. It is the path of every query a server runs, so its
 * diagnostics carry no quick fixes (checking one costs a parse of the text per fix, which made `translate()`
 * of a 3.4 KB hostile text three times slower): `validateOql` offers them, for editors.
 *
 * @example parseOql('works where year >= 2020') // { ok: true, oqo: { get_rows: 'works', filter_rows: [...] }, warnings: [] }
 */
export const parseOql = (text: string): ParseResult => {
  if (typeof text !== 'string') return notText(text)
  const analysis = analyze(text)
  const first = analysis.problems[0]
  if (first !== undefined || analysis.oqo === undefined)
    return {
      ok: false,
      diagnostics: first === undefined ? [] : [withoutQuickFixes(toDiagnostic(text, first))],
    }
  try {
    const validation = validateOqo(analysis.oqo)
    const warnings = validation.warnings.map((warning) => fromValidation(text, warning, analysis.locate))
    const oqo = canonicalizeOqo(analysis.oqo)
    if (!validation.valid)
      return {
        ok: false,
        diagnostics: [
          ...validation.errors.map((error) => fromValidation(text, error, analysis.locate, analysis.oqo)),
          ...warnings,
        ].map(withoutQuickFixes),
        oqo,
      }
    return { ok: true, oqo, warnings }
  } catch (error) {
    return { ok: false, diagnostics: [toDiagnostic(text, internalError(text, error))] }
  }
}

/**
 * Every problem of OQL text, for an editor (`/validate`): the parser recovers after an error at the
 * next clause, connective or parenthesis and keeps going, so each broken clause is reported. When the
 * text parses, the validation errors and warnings of the object. Never throws.
 */
export const validateOql = (text: string): OqlDiagnostic[] => {
  if (typeof text !== 'string') {
    const result = notText(text)
    return result.ok ? [] : [...result.diagnostics]
  }
  const analysis = analyze(text)
  if (analysis.problems.length > 0) {
    const seen = new Set<string>()
    return checkQuickFixes(
      text,
      analysis.problems
        .filter((problem) => {
          const key = `${problem.code}@${problem.span.start}`
          if (seen.has(key)) return false
          seen.add(key)
          return true
        })
        .map((problem) => toDiagnostic(text, problem)),
    )
  }
  if (analysis.oqo === undefined) return []
  try {
    const validation = validateOqo(analysis.oqo)
    const oqo = analysis.oqo
    // Each finding also names its clause by address, for an editor's outline (§7 `path`).
    return checkQuickFixes(
      text,
      [...validation.errors, ...validation.warnings].map((diagnostic) => {
        const placed = fromValidation(text, diagnostic, analysis.locate, oqo)
        const address = diagnostic.path === '' ? undefined : clauseAddressOf(oqo, diagnostic.path)
        return address === undefined ? placed : { ...placed, address }
      }),
    )
  } catch (error) {
    return [toDiagnostic(text, internalError(text, error))]
  }
}
