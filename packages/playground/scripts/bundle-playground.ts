// Builds the pages' browser bundle into `bundle/`:
// - the playground: one ES module (the page's script with CodeMirror, Chart.js and @oqlkit/oql inside), its
//   stylesheet and the page itself;
// - the API docs: Swagger UI's prebuilt script and stylesheet (swagger-ui-dist, copied as published, with its
//   licence), the page and the script that starts it on `/openapi.json`.
// The pages load nothing else, so they work with no network beyond the oqlkit server that serves them.
import { copyFileSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const PACKAGE_DIR = resolve(import.meta.dirname, '..')

/** The folder `@oqlkit/http` serves the page from when it is not told another. */
export const BUNDLE_DIR = join(PACKAGE_DIR, 'bundle')

const require = createRequire(import.meta.url)
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'))

export interface BundleOptions {
  readonly outDir?: string
  /** Minified for shipping (default); tests may skip it for speed. */
  readonly minify?: boolean
}

/** Bundles the page into `outDir` (default `bundle/`) and returns that folder. */
export const bundlePlayground = async (options: BundleOptions = {}): Promise<string> => {
  const outDir = options.outDir ?? BUNDLE_DIR
  mkdirSync(outDir, { recursive: true })
  await build({
    entryPoints: [
      { in: join(PACKAGE_DIR, 'src/playground-main.ts'), out: 'playground' },
      { in: join(PACKAGE_DIR, 'src/playground.css'), out: 'playground' },
    ],
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // The workspace's TypeScript source, as the tests see it; a published @oqlkit/oql resolves to dist.
    conditions: ['@oqlkit/source'],
    minify: options.minify ?? true,
    sourcemap: 'linked',
    legalComments: 'linked',
    logLevel: 'warning',
  })
  copyFileSync(join(PACKAGE_DIR, 'src/playground.html'), join(outDir, 'playground.html'))
  copyFileSync(join(PACKAGE_DIR, 'src/docs/docs.html'), join(outDir, 'docs.html'))
  copyFileSync(join(PACKAGE_DIR, 'src/docs/docs-init.js'), join(outDir, 'docs-init.js'))
  for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css'])
    copyFileSync(join(SWAGGER_UI_DIR, name), join(outDir, name))
  copyFileSync(join(SWAGGER_UI_DIR, 'LICENSE'), join(outDir, 'swagger-ui.LICENSE'))
  return outDir
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await bundlePlayground()
