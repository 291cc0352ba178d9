// A process for the resume tests: it ingests a snapshot and kills itself with SIGKILL, as the kernel's
// out-of-memory killer or a power cut would stop it, the moment the given number of part files are staged
// (their checkpoint committed). Nothing gets to clean up. Arguments: `<snapshotDir> <outDir> <parts>`. Parts
// that finish together are staged together, so it may have staged more: it says how many on its stdout
// (`staged <n>`) before it dies. Plain JavaScript over the built package (`builtWorkspace`), as users run
// it: from the source through tsx it cost twice the CPU.
import { writeSync } from 'node:fs'
import { ingestSnapshot } from '@oqlkit/ingest'

const [snapshotDir, outDir, partsText] = process.argv.slice(2)
if (snapshotDir === undefined || outDir === undefined || partsText === undefined)
  throw new Error('usage: ingest-kill-child.mjs <snapshotDir> <outDir> <parts>')
const parts = Number(partsText)

await ingestSnapshot({
  snapshotDir,
  outDir,
  threads: 2,
  searchIndex: false,
  textTagger: false,
  vectors: false,
  onProgress: (event) => {
    if (event.partsStaged < parts) return
    writeSync(1, `staged ${event.partsStaged}\n`)
    process.kill(process.pid, 'SIGKILL')
  },
})
// Reaching this line means the ingest finished before it had staged that many parts.
process.stdout.write('finished\n')
