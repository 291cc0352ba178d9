import { defineConfig } from 'vitest/config'
import { TimedJsonReporter } from './scripts/timed-json-reporter.ts'

// OQLKIT_TEST_REPORT names a JSON report to write beside the usual output, each file with its whole time;
// .ci/run sets it and prints the slowest files from it (scripts/slowest-test-files.ts).
const report = process.env.OQLKIT_TEST_REPORT

// Tests import sibling packages by name and resolve them to their TypeScript source through the
// `@oqlkit/source` export condition, so no build step stands between an edit and a test run.
export default defineConfig({
  resolve: { conditions: ['@oqlkit/source'] },
  ssr: { resolve: { conditions: ['@oqlkit/source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'scripts/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    ...(report ? { reporters: ['default', new TimedJsonReporter({ outputFile: report })] } : {}),
    restoreMocks: true,
    testTimeout: 30_000,
    // Ingests and catalog builds run in beforeAll; on a loaded 2-core machine they take tens of seconds.
    hookTimeout: 120_000,
  },
})
