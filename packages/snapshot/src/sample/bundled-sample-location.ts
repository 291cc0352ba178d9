// Where the bundled sample snapshot is: real OpenAlex records (CC0) in the legacy layout, shipped inside this
// package (its `sample-snapshot/` folder, beside `src/` and `dist/`), so that an installed `oqlkit serve`
// finds what it builds its first catalog from, and the repository's tests, benches and scripts read the same
// files. `npm run build:sample -w @oqlkit/snapshot` writes it (scripts/build-sample-snapshot.ts).
import { resolve } from 'node:path'

/** The bundled sample snapshot's folder: from `src/sample/` or `dist/sample/`, two levels up. */
export const SAMPLE_SNAPSHOT_DIR = resolve(import.meta.dirname, '../../sample-snapshot')

/**
 * The bundled real-text sample: 4,431 real works of five systematic reviews (works only), for trying search and
 * semantic search on real titles and abstracts (`oqlkit serve --sample real`).
 * `npm run build:real-sample -w @oqlkit/snapshot` writes it (scripts/build-real-sample-snapshot.ts).
 */
export const REAL_SAMPLE_SNAPSHOT_DIR = resolve(import.meta.dirname, '../../real-sample-snapshot')
