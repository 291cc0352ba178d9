// Times opening a catalog as a server does: the adapter (in MODE, default narrow), one random work, the text
// tagger, and the process's resident memory after. One run per process, so that nothing is warm:
//   node --conditions=@oqlkit/source --import tsx bench/catalog-open.ts CATALOG [narrow|views|tables]
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { loadCatalogTagger } from '@oqlkit/catalog'

const [catalogDir, mode = 'narrow'] = process.argv.slice(2)
if (catalogDir === undefined || !['narrow', 'views', 'tables'].includes(mode)) {
  process.stderr.write('usage: catalog-open.ts CATALOG [narrow|views|tables]\n')
  process.exit(2)
}
const started = performance.now()
const adapter = await createDuckDbAdapter({ catalogDir, load: mode as 'narrow' | 'views' | 'tables' })
const opened = performance.now()
const found = await adapter.findRandom('works')
const looked = performance.now()
const tagger = await loadCatalogTagger(catalogDir)
const tagged = performance.now()
process.stdout.write(
  `${mode} open ${(opened - started).toFixed(0)} ms; first lookup ${(looked - opened).toFixed(1)} ms (${found.status}); tagger ${tagger === undefined ? 'none' : `${(tagged - looked).toFixed(0)} ms`}; rss ${Math.round(process.memoryUsage().rss / 1e6)} MB\n`,
)
await adapter.close()
