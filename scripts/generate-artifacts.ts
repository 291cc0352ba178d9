import { readFile, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { buildArtifacts } from './artifacts.ts'

// `npm run generate` rewrites the generated artifacts; `npm run generate -- --check` only reports
// which ones differ from what is committed (the drift test does the same inside `npm test`).
const root = resolve(import.meta.dirname, '..')
const check = process.argv.includes('--check')
let stale = 0
for (const artifact of await buildArtifacts()) {
  const file = resolve(root, artifact.path)
  const current = await readFile(file, 'utf8').catch(() => undefined)
  if (current === artifact.content) continue
  stale++
  if (check) console.error(`stale: ${artifact.path}`)
  else {
    await writeFile(file, artifact.content)
    console.log(`wrote ${artifact.path}`)
  }
}
if (check && stale > 0) {
  console.error(`${stale} generated file(s) are out of date: run npm run generate`)
  process.exit(1)
}
if (stale === 0) console.log('generated artifacts are up to date')
