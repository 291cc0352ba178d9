// The values of a record at a JSON path, read from the parsed record the way DuckDB's `json_extract_string`
// reads them from its text. Ingest parses each record once (in a worker) and computes every value the
// catalog derives from it with these functions; the catalog's SQL then only types them. The paths are the
// catalog's own constants: `$.a.b`, `$.a."2yr"`, `$.a[0]`, `$.a[*].b` (wildcards flatten lists).

export type JsonPathStep =
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'all' }

const STEP = /\.(?:"([^"]+)"|([A-Za-z0-9_]+))|\[(\*|[0-9]+)\]/y

export function parseJsonPath(path: string): readonly JsonPathStep[] {
  if (!path.startsWith('$')) throw new Error(`A JSON path starts with $: ${path}`)
  const steps: JsonPathStep[] = []
  STEP.lastIndex = 1
  while (STEP.lastIndex < path.length) {
    const at = STEP.lastIndex
    const match = STEP.exec(path)
    if (match === null) throw new Error(`Not a JSON path the catalog reads (at ${at}): ${path}`)
    const [, quoted, plain, bracket] = match
    if (bracket === '*') steps.push({ kind: 'all' })
    else if (bracket !== undefined) steps.push({ kind: 'index', index: Number(bracket) })
    else steps.push({ kind: 'key', key: (quoted ?? plain)! })
  }
  return steps
}

/**
 * Pushes every value a path finds under `value` onto `found`, in document order: one at most without
 * wildcards. A missing step gives no value (a JSON null is a value); a wildcard over something that is not a
 * list gives none.
 */
export type PathCollector = (value: unknown, found: unknown[]) => void

/**
 * The path as one function per step, each calling the next: ingest reads 100-odd paths of every work, and
 * a chain built once is several times faster than interpreting the steps per record.
 */
export function compileJsonPath(steps: readonly JsonPathStep[]): PathCollector {
  let next: PathCollector = (value, found) => {
    found.push(value)
  }
  for (let at = steps.length - 1; at >= 0; at--) {
    const step = steps[at]!
    const then = next
    if (step.kind === 'all')
      next = (value, found) => {
        if (Array.isArray(value)) for (const item of value) then(item, found)
      }
    else if (step.kind === 'index') {
      const index = step.index
      next = (value, found) => {
        if (Array.isArray(value) && index < value.length) then(value[index], found)
      }
    } else {
      const key = step.key
      next = (value, found) => {
        if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, key))
          then((value as Record<string, unknown>)[key], found)
      }
    }
  }
  return next
}

/** The one value at a path without wildcards, or undefined. */
export function valueAtPath(root: unknown, steps: readonly JsonPathStep[]): unknown {
  let value = root
  for (const step of steps) {
    if (step.kind === 'key') {
      if (
        typeof value !== 'object' ||
        value === null ||
        Array.isArray(value) ||
        !Object.hasOwn(value, step.key)
      )
        return undefined
      value = (value as Record<string, unknown>)[step.key]
    } else if (step.kind === 'index') {
      if (!Array.isArray(value) || step.index >= value.length) return undefined
      value = value[step.index]
    } else return undefined
  }
  return value
}

/**
 * `json_extract_string` of a value: text as it is, numbers and booleans as their JSON text, objects and
 * lists as JSON text; null for a JSON null or no value.
 */
export function jsonText(value: unknown): string | null {
  if (value === undefined || value === null) return null
  if (typeof value === 'string') return value
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}
