// The order vitest starts the test files in: the slowest first, by the seconds each took in a full run
// (`scripts/test-file-seconds.json`, files of 3 s and more), the rest after them, largest first. With three
// workers on two cores, a slow file started last is the run's tail: on a fresh clone vitest has no timings of
// its own and went by file size, which started both adapters' conformance suites (20-30 s each, their cases
// in the engine's package) among the last, with a worker or two idle meanwhile.
import { readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const ROOT = join(import.meta.dirname, '..')
const SECONDS: Readonly<Record<string, number>> = JSON.parse(
  readFileSync(join(import.meta.dirname, 'test-file-seconds.json'), 'utf8'),
)

/** A file's weight: its seconds when known, else its size in kB (small files are quick ones). */
const weightOf = (file: string): number => {
  const known = SECONDS[relative(ROOT, file)]
  if (known !== undefined) return known
  try {
    return statSync(file).size / 1024 / 100
  } catch {
    return 0
  }
}

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weights = new Map(files.map((spec) => [spec.moduleId, weightOf(spec.moduleId)]))
    return [...files].sort((a, b) => weights.get(b.moduleId)! - weights.get(a.moduleId)!)
  }
}
