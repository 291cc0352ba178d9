// Writes entity records in the legacy OpenAlex snapshot layout:
//   <entity>/updated_date=YYYY-MM-DD/part_NNN.gz   gzipped JSON Lines, one record per line
//   <entity>/manifest                              Redshift-style manifest listing every part
// A record lives in the partition of its updated_date. Output is deterministic: records sorted by id inside
// a partition, parts and manifest entries sorted by path, gzip header with mtime 0 and a fixed OS byte.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { constants, gzipSync } from 'node:zlib'
import { compareOpenAlexIds } from './openalex-id-classifier.ts'

/** The prefix the manifests use for part urls; it stands for the snapshot directory itself. */
export const SNAPSHOT_URL_PREFIX = 's3://openalex/data/'

/** One record as it goes into a part file. */
export interface SnapshotLine {
  readonly id: string
  readonly updatedDate: string
  /** The record as one line of JSON, without the newline. */
  readonly line: string
}

export interface WrittenPart {
  /** Path relative to the snapshot directory, with `/` separators. */
  readonly path: string
  readonly url: string
  readonly contentLength: number
  readonly recordCount: number
}

export interface WrittenEntity {
  readonly entity: string
  readonly parts: readonly WrittenPart[]
  readonly recordCount: number
  /** Sum of the part sizes (gzip bytes), as the manifest's top-level meta states it. */
  readonly contentLength: number
}

export interface WriteOptions {
  /** Records per part file; a partition with more records gets part_001, part_002, ... */
  readonly recordsPerPart: number
}

export function writeEntity(
  outDir: string,
  entity: string,
  lines: readonly SnapshotLine[],
  options: WriteOptions,
): WrittenEntity {
  const partitions = new Map<string, SnapshotLine[]>()
  for (const line of lines) {
    const date = line.updatedDate.slice(0, 10)
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`${line.id}: bad updated_date ${line.updatedDate}`)
    const list = partitions.get(date)
    if (list) list.push(line)
    else partitions.set(date, [line])
  }

  const parts: WrittenPart[] = []
  for (const date of [...partitions.keys()].sort()) {
    const sorted = partitions.get(date)!.sort((a, b) => compareOpenAlexIds(a.id, b.id))
    for (let start = 0, index = 0; start < sorted.length; start += options.recordsPerPart, index++) {
      const chunk = sorted.slice(start, start + options.recordsPerPart)
      const path = `${entity}/updated_date=${date}/part_${String(index).padStart(3, '0')}.gz`
      const body = gzipDeterministic(Buffer.from(chunk.map((line) => `${line.line}\n`).join(''), 'utf8'))
      mkdirSync(join(outDir, entity, `updated_date=${date}`), { recursive: true })
      writeFileSync(join(outDir, ...path.split('/')), body)
      parts.push({
        path,
        url: SNAPSHOT_URL_PREFIX + path,
        contentLength: body.length,
        recordCount: chunk.length,
      })
    }
  }
  parts.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))

  const written: WrittenEntity = {
    entity,
    parts,
    recordCount: parts.reduce((sum, part) => sum + part.recordCount, 0),
    contentLength: parts.reduce((sum, part) => sum + part.contentLength, 0),
  }
  mkdirSync(join(outDir, entity), { recursive: true })
  writeFileSync(join(outDir, entity, 'manifest'), renderManifest(written))
  return written
}

/**
 * The manifest text, laid out as the real snapshot manifests are: one entry per line, then the totals.
 * `content_length` is the size of the part file in bytes, `record_count` its number of lines.
 */
export function renderManifest(written: WrittenEntity): string {
  const entries = written.parts.map(
    (part) =>
      `    {"url": ${JSON.stringify(part.url)}, "meta": { "content_length": ${part.contentLength}, "record_count": ${part.recordCount} } }`,
  )
  return [
    '{',
    ...(entries.length === 0 ? ['  "entries": [],'] : ['  "entries": [', entries.join(',\n'), '  ],']),
    '  "meta": {',
    `    "content_length": ${written.contentLength},`,
    `    "record_count": ${written.recordCount}`,
    '  }',
    '}',
    '',
  ].join('\n')
}

// Byte 9 of a gzip member is the OS that wrote it; zlib fills in its build platform. Pin it to 3 (Unix).
const GZIP_OS_BYTE = 9
const GZIP_OS_UNIX = 3

/** gzip at the highest level with a fixed header (mtime 0, no file name, OS byte 3). */
export function gzipDeterministic(data: Buffer): Buffer {
  const body = gzipSync(data, { level: constants.Z_BEST_COMPRESSION })
  body.writeUInt32LE(0, 4)
  body[GZIP_OS_BYTE] = GZIP_OS_UNIX
  return body
}
