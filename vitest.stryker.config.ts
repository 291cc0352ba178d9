import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The vitest run StrykerJS uses (`npm run mutate`): the tests of the packages whose rules are the contract
// (oqo-schema, oql, engine). Stryker runs them in a copy of the repository (.stryker-tmp/sandbox-…) whose
// node_modules is a link to the real one, so `@oqlkit/…` would resolve to the real, unmutated packages: the
// aliases point every package name at the sandbox's own sources instead.
const source = (path: string) => fileURLToPath(new URL(`./packages/${path}`, import.meta.url))

// biome-ignore lint/style/noDefaultExport: vitest reads a config file's default export
export default defineConfig({
  resolve: {
    conditions: ['@oqlkit/source'],
    alias: [
      { find: /^@oqlkit\/(oqo-schema|engine)\/testing$/, replacement: source('$1/src/testing/index.ts') },
      { find: /^@oqlkit\/(oqo-schema|oql|engine)$/, replacement: source('$1/src/index.ts') },
    ],
  },
  ssr: { resolve: { conditions: ['@oqlkit/source'] } },
  test: {
    include: [
      'packages/oqo-schema/{src,test}/**/*.test.ts',
      'packages/oql/{src,test}/**/*.test.ts',
      'packages/engine/{src,test}/**/*.test.ts',
    ],
    restoreMocks: true,
    testTimeout: 30_000,
  },
})
