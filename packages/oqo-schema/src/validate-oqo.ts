import { type ArkError, type } from 'arktype'
import {
  formatPath,
  type OqoDiagnostic,
  quote,
  type ValidationCode,
  writeColumnActionMessage,
  writeNullValueMessage,
  writeOperatorForColumnMessage,
  writeUnknownColumnMessage,
  writeValueDomainMessage,
  writeValueTypeMessage,
} from './diagnostic.ts'
import { type EntityType, NATIVE_ID_PREFIXES, resolveEntityType } from './entity-types.ts'
import {
  branchFilterValidator,
  groupByValidator,
  isPlainBranchShape,
  isPlainGroupByShape,
  isPlainLeafShape,
  isPlainOqoShape,
  LEGACY_VIEW_KEYS,
  leafFilterValidator,
  oqoInputValidator,
} from './oqo-validators.ts'
import type { Column, Operator } from './registry/column.ts'
import { type PropertiesRegistry, propertiesRegistry } from './registry/properties-registry.ts'
import {
  COLLECTION_ID,
  DECIMAL_TEXT,
  entityOfIdPrefix,
  INTEGER_TEXT,
  isBooleanText,
  isDateText,
  isDateTimeText,
  parseNativeId,
} from './value-checks.ts'
import { findVocabularyEntry, suggestVocabularyCode, vocabularyOf } from './vocabularies/vocabulary.ts'

/** The outcome of validating an OQO: the same `{valid, errors, warnings}` the `/query` endpoints report. */
export interface OqoValidation {
  readonly valid: boolean
  readonly errors: readonly OqoDiagnostic[]
  readonly warnings: readonly OqoDiagnostic[]
}

export interface ValidateOqoOptions {
  readonly registry?: PropertiesRegistry
}

type Path = ReadonlyArray<string | number>

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const NODE_KEYS = {
  leaf: 'column_id, value, operator, is_negated',
  branch: 'join, filters, is_negated',
  group: 'column_id',
  oqo: `get_rows, corpus, filter_rows, group_by, sample, seed (and, transitionally, ${LEGACY_VIEW_KEYS.join(', ')})`,
} as const

type NodeKind = keyof typeof NODE_KEYS

const FIXES: Partial<Record<ValidationCode, string>> = {
  invalid_entity: 'Set get_rows to one of those entity types.',
  invalid_join: 'Use "and" to require every child or "or" to require at least one.',
  empty_branch: 'Give the branch at least one filter, or remove it.',
  invalid_operator: "Leave operator out for 'is', and negate with is_negated: true.",
  invalid_value_type: 'A value is a string, a number, a boolean or null.',
  invalid_sample: 'Use an integer from 1 to 10000, or leave sample out.',
  invalid_seed: 'Use a string such as "42".',
  invalid_corpus: 'Leave corpus out for the core corpus.',
  invalid_group_by: 'Write each dimension as an object whose column_id names a column, such as "type".',
}

const codeForArkError = (path: Path, error: ArkError): ValidationCode => {
  if (error.code === 'predicate' && error.expected === 'removed') return 'invalid_body'
  const key = [...path].reverse().find((segment): segment is string => typeof segment === 'string')
  if (path[0] === 'group_by') return 'invalid_group_by'
  switch (key) {
    case 'get_rows':
      return 'invalid_entity'
    case 'join':
      return 'invalid_join'
    case 'filters':
      return error.code === 'minLength' ? 'empty_branch' : 'invalid_body'
    case 'operator':
      return 'invalid_operator'
    case 'value':
      return 'invalid_value_type'
    case 'sample':
      return 'invalid_sample'
    case 'seed':
      return 'invalid_seed'
    case 'corpus':
      return 'invalid_corpus'
    default:
      return 'invalid_body'
  }
}

class DiagnosticCollector {
  readonly errors: OqoDiagnostic[] = []
  readonly warnings: OqoDiagnostic[] = []

  error(code: ValidationCode, path: Path, message: string): void {
    this.errors.push({ code, severity: 'error', message, path: formatPath(path) })
  }

  warn(code: ValidationCode, path: Path, message: string): void {
    this.warnings.push({ code, severity: 'warning', message, path: formatPath(path) })
  }

  /** Reports arktype's errors for a node at `base`, with full paths and a fix. */
  arkErrors(base: Path, errors: Iterable<ArkError>, kind: NodeKind): void {
    for (const error of errors) {
      const path = [
        ...base,
        ...error.path.map((segment) => (typeof segment === 'number' ? segment : String(segment))),
      ]
      const code = codeForArkError(path, error)
      const where = formatPath(path) || 'the query object'
      // Union problems already start with the property name; strip it so the full path stands alone.
      const problem = error.problem.startsWith(`${error.propString} `)
        ? error.problem.slice(error.propString.length + 1)
        : error.problem
      const fix =
        error.expected === 'removed'
          ? `Remove it: ${kind === 'oqo' ? 'the query object' : `a ${kind === 'group' ? 'group_by entry' : kind}`} has only ${NODE_KEYS[kind]}.`
          : (FIXES[code] ?? 'See spec/oqo.schema.json for the shape of an OQO.')
      this.error(code, path, `${where} ${problem}. ${fix}`)
    }
  }
}

const kindDescription = (column: Column): string => {
  switch (column.kind) {
    case 'number':
      return 'an integer'
    case 'float':
      return 'a number'
    case 'boolean':
      return 'true or false'
    case 'date':
      return 'a date (YYYY-MM-DD, or a year)'
    case 'datetime':
      return 'an ISO 8601 date-time'
    case 'search':
      return 'search text'
    default:
      return 'a string'
  }
}

const hasRightType = (column: Column, value: string | number | boolean): boolean => {
  switch (column.kind) {
    case 'number':
      return Number.isInteger(value) || (typeof value === 'string' && INTEGER_TEXT.test(value.trim()))
    case 'float':
      return (
        (typeof value === 'number' && Number.isFinite(value)) ||
        (typeof value === 'string' && DECIMAL_TEXT.test(value.trim()))
      )
    case 'boolean':
      return typeof value === 'boolean' || (typeof value === 'string' && isBooleanText(value.trim()))
    case 'date':
      return (
        (Number.isInteger(value) && String(value).length === 4) ||
        (typeof value === 'string' && isDateText(value.trim()))
      )
    case 'datetime':
      return typeof value === 'string' && isDateTimeText(value.trim())
    case 'search':
      return typeof value === 'string' && value.trim() !== ''
    default:
      return typeof value !== 'boolean'
  }
}

const ENTITY_SINGULAR: Readonly<Record<string, string>> = {
  works: 'a work',
  authors: 'an author',
  sources: 'a source',
  institutions: 'an institution',
  topics: 'a topic',
  publishers: 'a publisher',
  funders: 'a funder',
  concepts: 'a concept',
  awards: 'an award',
}

/**
 * A source's host organization is a publisher or, for a repository, the institution that runs it: the
 * host columns take either kind of id (`host_institution_lineage` is another name of the same column).
 */
const alsoAcceptedPrefixes = (column: Column): readonly string[] =>
  /(^|\.)host_organization(_lineage)?$/.test(column.id) ? ['I'] : []

/** Checks that a value belongs to the column's domain: a vocabulary member, or an id of the right entity. */
const domainProblem = (
  column: Column,
  value: string | number,
): { expected: string; suggestion?: string } | undefined => {
  const text = String(value).trim()
  const entity = column.valueEntity
  if (column.kind !== 'entity_id' && column.kind !== 'enum') return undefined
  if (entity !== null) {
    const vocabulary = vocabularyOf(entity)
    if (vocabulary !== undefined) {
      if (findVocabularyEntry(entity, text) !== undefined) return undefined
      const suggestion = suggestVocabularyCode(entity, text)
      const expected = `a code of ${entity} such as '${vocabulary[0]?.code ?? ''}'`
      return suggestion === undefined ? { expected } : { expected, suggestion }
    }
  }
  const prefix = entity === null ? undefined : NATIVE_ID_PREFIXES[entity as keyof typeof NATIVE_ID_PREFIXES]
  if (entity !== null && prefix === undefined) return undefined // keywords and other slug ids
  const id = parseNativeId(text)
  if (prefix === undefined)
    return id === undefined ? { expected: 'an OpenAlex id such as W2741809807' } : undefined
  if (id?.letter === prefix || (id !== undefined && alsoAcceptedPrefixes(column).includes(id.letter)))
    return undefined
  const expected = `${ENTITY_SINGULAR[entity as string] ?? 'an'} id (${prefix} followed by digits)`
  const other = id === undefined ? undefined : entityOfIdPrefix(id.letter)
  return {
    expected:
      other === undefined ? expected : `${expected}; ${quote(text)} is ${ENTITY_SINGULAR[other] ?? other} id`,
  }
}

const checkLeafAgainstRegistry = (
  registry: PropertiesRegistry,
  entity: EntityType,
  leaf: typeof leafFilterValidator.infer,
  path: Path,
  diagnostics: DiagnosticCollector,
): void => {
  // Each problem below ends the check, so the path is written out at most once: a valid leaf needs none.
  const column = registry.resolveColumn(entity, leaf.column_id)
  if (column === undefined) {
    diagnostics.error(
      'invalid_column',
      [...path, 'column_id'],
      writeUnknownColumnMessage(
        formatPath(path),
        entity,
        leaf.column_id,
        registry.suggestColumns(entity, leaf.column_id),
      ),
    )
    return
  }
  if (
    column.kind === null ||
    !(column.actions.includes('filter') || column.actions.includes('search') || column.kind === 'collection')
  ) {
    diagnostics.error(
      'invalid_column',
      [...path, 'column_id'],
      writeColumnActionMessage(formatPath(path), entity, leaf.column_id, 'filter', column.actions),
    )
    return
  }
  const operator: Operator = leaf.operator ?? 'is'
  if (!column.operators.includes(operator)) {
    diagnostics.error(
      'invalid_operator_for_column',
      [...path, 'operator'],
      writeOperatorForColumnMessage(
        formatPath(path),
        leaf.column_id,
        column.kind,
        operator,
        column.operators,
      ),
    )
    return
  }
  const value = leaf.value
  if (value === null) {
    if (operator !== 'is' || !column.operatorBuckets.includes('null'))
      diagnostics.error(
        'invalid_value',
        [...path, 'value'],
        writeNullValueMessage(formatPath(path), leaf.column_id, operator),
      )
    return
  }
  /** Refuses the value as outside the column's domain: `expected` says what it takes. */
  const refuseDomain = (expected: string, suggestion?: string): void =>
    diagnostics.error(
      'invalid_value',
      [...path, 'value'],
      writeValueDomainMessage(formatPath(path), leaf.column_id, value, expected, suggestion),
    )
  if (operator === 'in collection') {
    if (typeof value !== 'string' || !COLLECTION_ID.test(value))
      refuseDomain('a collection id: col_ followed by 1 to 48 letters or digits')
    return
  }
  if (!hasRightType(column, value)) {
    diagnostics.error(
      'invalid_value_type',
      [...path, 'value'],
      writeValueTypeMessage(formatPath(path), leaf.column_id, kindDescription(column), value),
    )
    return
  }
  // An empty value matches nothing, so it is refused rather than run: a missing value is null.
  if (operator === 'is' && typeof value === 'string' && value.trim() === '') {
    refuseDomain('a value that is not empty; null matches a missing value')
    return
  }
  if (
    operator === 'is' &&
    typeof value !== 'boolean' &&
    !(typeof value === 'string' && COLLECTION_ID.test(value))
  ) {
    const problem = domainProblem(column, value)
    if (problem !== undefined) refuseDomain(problem.expected, problem.suggestion)
  }
}

/**
 * How deep branches may nest in `filter_rows`. Validation, canonicalisation, planning and the SQL compiler
 * each recurse once per level, so a body of a few thousand nested branches overflowed the stack (a 500);
 * no real query comes near this, and OQL text stops at 64 levels of parentheses.
 */
export const MAX_FILTER_DEPTH = 256

const walkFilter = (
  node: unknown,
  path: Path,
  entity: EntityType | undefined,
  registry: PropertiesRegistry,
  diagnostics: DiagnosticCollector,
  /** Branches above this node. */
  depth = 0,
): void => {
  if (depth > MAX_FILTER_DEPTH) {
    diagnostics.error(
      'invalid_body',
      path,
      `${formatPath(path.slice(0, 2))} nests branches more than ${MAX_FILTER_DEPTH} levels deep (at most ${MAX_FILTER_DEPTH}). Flatten it: a branch may hold any number of filters.`,
    )
    return
  }
  if (!isPlainObject(node)) {
    diagnostics.error(
      'invalid_body',
      path,
      `${formatPath(path)} must be a filter object (was ${quote(node)}). Write a leaf {column_id, value} or a branch {join, filters}.`,
    )
    return
  }
  if ('join' in node || 'filters' in node) {
    const branch = isPlainBranchShape(node) ? node : branchFilterValidator(node)
    if (branch instanceof type.errors) diagnostics.arkErrors(path, branch, 'branch')
    if (Array.isArray(node.filters))
      node.filters.forEach((child, index) => {
        walkFilter(child, [...path, 'filters', index], entity, registry, diagnostics, depth + 1)
      })
    return
  }
  const leaf = isPlainLeafShape(node) ? (node as typeof leafFilterValidator.infer) : leafFilterValidator(node)
  if (leaf instanceof type.errors) {
    diagnostics.arkErrors(path, leaf, 'leaf')
    return
  }
  if (entity !== undefined) checkLeafAgainstRegistry(registry, entity, leaf, path, diagnostics)
}

/**
 * Validates an OQO: its shape (unknown keys, wrong types, empty branches, bad joins) and its meaning
 * against the properties registry (unknown columns, operators the column does not take, values of
 * the wrong type or outside the column's domain). Never throws; every problem names its path.
 */
export const validateOqo = (input: unknown, options: ValidateOqoOptions = {}): OqoValidation => {
  const registry = options.registry ?? propertiesRegistry
  const diagnostics = new DiagnosticCollector()
  if (!isPlainObject(input)) {
    diagnostics.error(
      'invalid_body',
      [],
      `The query object must be a JSON object (was ${quote(input)}). Send {"get_rows": "works", …}.`,
    )
    return { valid: false, errors: diagnostics.errors, warnings: [] }
  }
  const top = isPlainOqoShape(input) ? input : oqoInputValidator(input)
  if (top instanceof type.errors) diagnostics.arkErrors([], top, 'oqo')

  const entity = typeof input.get_rows === 'string' ? resolveEntityType(input.get_rows) : undefined
  if (Array.isArray(input.filter_rows))
    input.filter_rows.forEach((node, index) => {
      walkFilter(node, ['filter_rows', index], entity, registry, diagnostics)
    })

  if (entity !== undefined && Array.isArray(input.group_by))
    input.group_by.forEach((dimension, index) => {
      // Already reported with the top level.
      if (!isPlainGroupByShape(dimension) && groupByValidator(dimension) instanceof type.errors) return
      const columnId = (dimension as { column_id: string }).column_id
      const column = registry.resolveColumn(entity, columnId)
      const path = ['group_by', index, 'column_id']
      if (column === undefined)
        diagnostics.error(
          'invalid_group_by',
          path,
          writeUnknownColumnMessage(
            formatPath(path),
            entity,
            columnId,
            registry.suggestColumns(entity, columnId),
          ),
        )
      // A column that exists but cannot be grouped is an invalid column, as the reference answers
      // ("'citation_normalized_percentile.value' is not a groupable column"), and as a filter on a
      // column that cannot filter is; invalid_group_by stays for a dimension naming no column at all.
      else if (!column.actions.includes('group_by'))
        diagnostics.error(
          'invalid_column',
          path,
          writeColumnActionMessage(formatPath(path), entity, columnId, 'group_by', column.actions),
        )
    })

  if (entity !== undefined && entity !== 'works' && input.corpus !== undefined && input.corpus !== 'core')
    diagnostics.warn(
      'corpus_ignored',
      ['corpus'],
      `corpus applies to works only; it was ignored for ${entity}. Remove it.`,
    )
  if (
    input.seed !== undefined &&
    input.seed !== null &&
    (input.sample === undefined || input.sample === null)
  )
    diagnostics.warn(
      'seed_without_sample',
      ['seed'],
      'seed has no effect without sample. Add sample, or remove seed.',
    )
  for (const key of LEGACY_VIEW_KEYS)
    if (key in input)
      diagnostics.warn(
        'embedded_view_parameter',
        [key],
        `${key} inside the OQO is a transitional shape; a sibling request parameter wins over it. Send ${key === 'sort_by' || key === 'sort_by_column' || key === 'sort_by_order' ? 'sort' : key} next to the OQO instead.`,
      )

  return {
    valid: diagnostics.errors.length === 0,
    errors: diagnostics.errors,
    warnings: diagnostics.warnings,
  }
}
