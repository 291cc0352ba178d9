// The vectors step of `bench:scale` (scale-bench.ts), a process of its own so that its time and memory are its
// own: the works' LSA vectors and their list index, added to a catalog in place, as `indexCatalogVectors` does.
//   node --conditions=@oqlkit/source --import tsx bench/scale-vectors-step.ts <catalog-dir> [memory-limit]
import { indexCatalogVectors } from '@oqlkit/ingest'

const [catalogDir, memoryLimit] = process.argv.slice(2)
if (catalogDir === undefined) {
  console.error('usage: scale-vectors-step.ts <catalog-dir> [memory-limit]')
  process.exit(2)
}
let lastStep = ''
const result = await indexCatalogVectors({
  catalogDir,
  vectors: { kind: 'lsa' },
  ...(memoryLimit === undefined ? {} : { memoryLimit }),
  onProgress: (done, total, step) => {
    if (step !== lastStep) console.log(`vectors: ${step} (${done} of ${total})`)
    lastStep = step
  },
})
console.log(
  `vectors: ${result.vectors.count} works, ${result.vectors.dimensions} dimensions, list index ${result.vectors.listIndex === undefined ? 'none' : `${result.vectors.listIndex.lists} lists`}, ${(result.durationMs / 1000).toFixed(1)} s`,
)
