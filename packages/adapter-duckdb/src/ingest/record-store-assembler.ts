// Puts an entity's record store together from the segments the parse workers wrote (each already
// compressed with the entity's dictionary), in task order, and says where each segment begins: a row's
// offset in the store is its offset in its segment plus that base. Copying compressed bytes is the only
// work left here; nothing is compressed twice.
import { open, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CatalogEntity } from '../catalog/catalog-entities.ts'
import {
  type CatalogFile,
  type CatalogRecordStore,
  recordDictionaryPath,
  recordStorePath,
} from '../catalog/catalog-layout.ts'
import {
  buildRecordDictionary,
  checkRecordCodecId,
  RECORD_CODEC_ID,
  type RecordCodecId,
} from '../catalog/record-codec.ts'

export interface RecordSegment {
  /** The parse task that wrote it (`record_part` of its rows). */
  readonly part: number
  readonly path: string
  readonly records: number
  /** A parse worker's segment goes once copied; the store of the catalog being updated stays. */
  readonly removeAfterCopy: boolean
}

export interface AssembledRecordStore {
  readonly store: CatalogRecordStore
  readonly files: readonly CatalogFile[]
  /** Where each segment begins in the store. */
  readonly bases: readonly { readonly part: number; readonly base: number }[]
}

/** Records the dictionary is made of: the first of the entity's first part file. */
export const DICTIONARY_EXAMPLES = 16

/** How an entity's records are compressed: the codec and its dictionary. */
export interface RecordCoding {
  readonly codec: RecordCodecId
  readonly dictionary: Buffer
}

/**
 * How an entity's records are compressed: as in the catalog being updated when it has a store (its records
 * are kept as they were compressed, and the new ones join them in the same store), else with `codec` and a
 * dictionary of the first records of the first file read (`firstRecords`, at most `DICTIONARY_EXAMPLES` of
 * them, as the parse workers will read them). Deterministic: the same snapshot gives the same dictionary.
 */
export async function recordCodingFor(
  previous:
    | { readonly storePath: string; readonly dictionaryPath: string; readonly codec: string }
    | undefined,
  firstRecords: () => Promise<readonly string[]>,
  codec: RecordCodecId = RECORD_CODEC_ID,
): Promise<RecordCoding> {
  if (previous !== undefined)
    return {
      codec: checkRecordCodecId(previous.codec, previous.storePath),
      dictionary: await readFile(previous.dictionaryPath),
    }
  return {
    codec: checkRecordCodecId(codec, 'being written'),
    dictionary: buildRecordDictionary(await firstRecords(), codec),
  }
}

const COPY_CHUNK = 8 << 20

export async function assembleRecordStore(
  outDir: string,
  entity: CatalogEntity,
  { codec, dictionary }: RecordCoding,
  segments: readonly RecordSegment[],
): Promise<AssembledRecordStore> {
  const absolute = (path: string) => join(outDir, ...path.split('/'))
  const storePath = recordStorePath(entity)
  const dictionaryPath = recordDictionaryPath(entity)
  await writeFile(absolute(dictionaryPath), dictionary)
  const bases: { part: number; base: number }[] = []
  const out = await open(absolute(storePath), 'w')
  let position = 0
  let records = 0
  try {
    const buffer = Buffer.allocUnsafe(COPY_CHUNK)
    for (const segment of segments) {
      bases.push({ part: segment.part, base: position })
      const input = await open(segment.path, 'r')
      try {
        for (;;) {
          const { bytesRead } = await input.read(buffer, 0, COPY_CHUNK, null)
          if (bytesRead === 0) break
          let written = 0
          while (written < bytesRead)
            written += (await out.write(buffer, written, bytesRead - written, position + written))
              .bytesWritten
          position += bytesRead
        }
      } finally {
        await input.close()
      }
      records += segment.records
      if (segment.removeAfterCopy) await rm(segment.path, { force: true })
    }
    // Written through before the catalog is swapped in: a crash after the swap must not find a short file.
    await out.sync()
  } finally {
    await out.close()
  }
  return {
    store: { file: storePath, dictionary: dictionaryPath, codec },
    files: [
      { path: storePath, bytes: (await stat(absolute(storePath))).size, rows: records },
      { path: dictionaryPath, bytes: dictionary.length, rows: 0 },
    ],
    bases,
  }
}
