import { defineConfig } from 'vitest/config'

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
    restoreMocks: true,
    testTimeout: 30_000,
    // Ingests and catalog builds run in beforeAll; on a loaded 2-core machine they take tens of seconds.
    hookTimeout: 120_000,
  },
})
