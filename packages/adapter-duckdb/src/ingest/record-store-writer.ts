// Writes an entity's record store (catalog/record-codec.ts) from its final table, and puts each record's
// offset and length back on its row, so a page of results reads its records by position. Streams: the
// records pass through in chunks, never all in memory.
import { open, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CatalogEntityInfo } from '../catalog/catalog-entities.ts'
import {
  type CatalogFile,
  type CatalogRecordStore,
  recordDictionaryPath,
  recordStorePath,
} from '../catalog/catalog-layout.ts'
import { buildRecordDictionary, RECORD_CODEC_ID, RecordCodec } from '../catalog/record-codec.ts'
import { recordStoreSql } from './catalog-sql.ts'
import type { StagingDatabase } from './staging-database.ts'

export interface WrittenRecordStore {
  readonly store: CatalogRecordStore
  readonly files: readonly CatalogFile[]
}

export async function writeRecordStore(
  db: StagingDatabase,
  info: CatalogEntityInfo,
  outDir: string,
): Promise<WrittenRecordStore> {
  const statements = recordStoreSql(info)
  const absolute = (path: string) => join(outDir, ...path.split('/'))
  const storePath = recordStorePath(info.entity)
  const dictionaryPath = recordDictionaryPath(info.entity)

  const examples = (await db.rows(statements.examples)).map((row) => String(row.record))
  const dictionary = buildRecordDictionary(examples)
  await writeFile(absolute(dictionaryPath), dictionary)
  const codec = new RecordCodec(dictionary)

  await db.run(statements.createOffsets)
  const offsets = await db.appender('record_offsets')
  const file = await open(absolute(storePath), 'w')
  let position = 0
  let records = 0
  try {
    for await (const chunk of db.stream(statements.records)) {
      const blobs: Buffer[] = []
      for (const [id, record] of chunk) {
        const blob = codec.encode(String(record))
        offsets.appendVarchar(String(id))
        offsets.appendBigInt(BigInt(position))
        offsets.appendInteger(blob.length)
        offsets.endRow()
        blobs.push(blob)
        position += blob.length
      }
      await file.write(Buffer.concat(blobs))
      records += chunk.length
    }
    // Written through before the catalog is swapped in: a crash after the swap must not find a short file.
    await file.sync()
  } finally {
    await file.close()
    offsets.closeSync()
  }
  // Every row must have found its record: a short store would answer with the wrong bytes, not with an error.
  const [{ rows, located } = { rows: 0, located: 0 }] = (await db.rows(statements.checkOffsets)).map(
    (row) => ({
      rows: Number(row.rows),
      located: Number(row.located),
    }),
  )
  if (rows !== records || located !== records)
    throw new Error(
      `The record store of ${info.entity} holds ${records} records for ${rows} rows (${located} located): the build stopped short`,
    )
  for (const sql of statements.attachOffsets) await db.run(sql)

  return {
    store: { file: storePath, dictionary: dictionaryPath, codec: RECORD_CODEC_ID },
    files: [
      { path: storePath, bytes: (await stat(absolute(storePath))).size, rows: records },
      { path: dictionaryPath, bytes: dictionary.length, rows: 0 },
    ],
  }
}
