// Chooses how an entity's records are compressed, and puts its record store together from the segments the parse workers wrote (each already
// compressed with the entity's dictionary), in task order, and says where each segment begins: a row's
// offset in the store is its offset in its segment plus that base. Copying compressed bytes is the only
// work left here; nothing is compressed twice.
import { constants } from 'node:fs'
import { copyFile, open, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CatalogEntity } from '@oqlkit/catalog'
import {
  buildRecordDictionary,
  type CatalogFile,
  type CatalogRecordStore,
  checkRecordCodecId,
  RECORD_CODEC_ID,
  type RecordCodecId,
  recordCodecOf,
  recordDictionaryPath,
  recordStorePath,
} from '@oqlkit/catalog'
import { trainZstdDictionary } from './record-dictionary-trainer.ts'

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

/** Records a dictionary is chosen from: the entity's first, from its first part file on, at most this many… */
export const DICTIONARY_EXAMPLES = 2_000
/** …and at most this much JSON of them (zstd trains on about 100 times the dictionary's size at best). */
const DICTIONARY_EXAMPLE_BYTES = 16 << 20
/** The raw dictionary is the tail of the first records (as format 6 and 7 made every dictionary). */
const RAW_DICTIONARY_EXAMPLES = 16
/**
 * A trained dictionary's largest size. 256 KiB made 2,000 generated works 12% smaller than the 128 KiB raw
 * one; 1 MiB 5% smaller again, but zstd wants ten times the dictionary's size to train on, which a small
 * snapshot's first part does not always have.
 */
const TRAINED_DICTIONARY_BYTES = 256 * 1024
/** zstd's advice: train on at least ten times the dictionary's size. */
const TRAINING_BYTES_PER_DICTIONARY_BYTE = 10
/** Below this a dictionary is not worth training (and zstd refuses too few samples). */
const MIN_TRAINED_DICTIONARY_BYTES = 16 * 1024
/** Every tenth example is held out of the training, to judge the dictionaries on records neither has seen. */
const HELD_OUT_EVERY = 10

/** How an entity's records are compressed: the codec and its dictionary. */
export interface RecordCoding {
  readonly codec: RecordCodecId
  readonly dictionary: Buffer
}

/** Where and how a zstd dictionary may be trained (`record-dictionary-trainer.ts`). */
export interface DictionaryTrainingSetup {
  /** A folder of the build the examples can be written to (made and removed by the trainer). */
  readonly workDir: string
  /** The zstd command (tests point it at a missing one). */
  readonly command?: string
}

/** The coding chosen for a new store, and why its dictionary is the raw one when training was possible. */
export interface ChosenRecordCoding extends RecordCoding {
  /** `trained` by zstd, `examples` (the raw tail of the first records), or `kept` from the catalog updated. */
  readonly dictionaryKind: 'trained' | 'examples' | 'kept'
  /** Set when a dictionary could have been trained and was not (the command is missing, or failed). */
  readonly warning?: string
}

/**
 * How an entity's records are compressed: as in the catalog being updated when it has a store (its records
 * are kept as they were compressed, and the new ones join them in the same store), else with `codec` and a
 * dictionary of the first records of the first file read (`firstRecords`, at most `DICTIONARY_EXAMPLES` of
 * them, as the parse workers will read them). For zstd, with `training`, a dictionary is also trained on
 * those records, and whichever of the two compresses the held-out tenth of them smaller is kept: the raw one
 * wins where there are few records or they repeat little. Deterministic: the same snapshot (and zstd) gives
 * the same dictionary.
 */
export async function recordCodingFor(
  previous:
    | { readonly storePath: string; readonly dictionaryPath: string; readonly codec: string }
    | undefined,
  firstRecords: () => Promise<readonly string[]>,
  codec: RecordCodecId = RECORD_CODEC_ID,
  training?: DictionaryTrainingSetup,
): Promise<ChosenRecordCoding> {
  if (previous !== undefined)
    return {
      codec: checkRecordCodecId(previous.codec, previous.storePath),
      dictionary: await readFile(previous.dictionaryPath),
      dictionaryKind: 'kept',
    }
  const chosen = checkRecordCodecId(codec, 'being written')
  const examples = withinBytes(await firstRecords(), DICTIONARY_EXAMPLE_BYTES)
  const raw: ChosenRecordCoding = {
    codec: chosen,
    dictionary: buildRecordDictionary(examples.slice(0, RAW_DICTIONARY_EXAMPLES), chosen),
    dictionaryKind: 'examples',
  }
  if (training === undefined || chosen === 'deflate-raw+dictionary') return raw
  const heldOut = examples.filter((_, index) => index % HELD_OUT_EVERY === HELD_OUT_EVERY - 1)
  const trainOn = examples.filter((_, index) => index % HELD_OUT_EVERY !== HELD_OUT_EVERY - 1)
  const maxBytes = Math.min(
    TRAINED_DICTIONARY_BYTES,
    Math.floor(utf8Bytes(trainOn) / TRAINING_BYTES_PER_DICTIONARY_BYTE),
  )
  if (maxBytes < MIN_TRAINED_DICTIONARY_BYTES || heldOut.length === 0) return raw
  // Trained on what the compressor will be given (a work's abstract packed as its words), not the JSON.
  const form = recordCodecOf(chosen, Buffer.alloc(0))
  const trained = await trainZstdDictionary(
    trainOn.map((record) => form.compressedForm(record)),
    { ...training, maxBytes },
  )
  if (trained.dictionary === null) return { ...raw, warning: trained.reason }
  const sizeWith = (dictionary: Buffer) => {
    const codec = recordCodecOf(chosen, dictionary)
    return heldOut.reduce((sum, record) => sum + codec.encode(record).length, 0)
  }
  return sizeWith(trained.dictionary) < sizeWith(raw.dictionary)
    ? { codec: chosen, dictionary: trained.dictionary, dictionaryKind: 'trained' }
    : raw
}

const utf8Bytes = (texts: readonly string[]): number =>
  texts.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0)

/** The first texts whose UTF-8 adds up to at most `limit` bytes (the first one always). */
function withinBytes(texts: readonly string[], limit: number): readonly string[] {
  let bytes = 0
  for (const [index, text] of texts.entries()) {
    bytes += Buffer.byteLength(text, 'utf8')
    if (bytes > limit) return texts.slice(0, Math.max(1, index))
  }
  return texts
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
  // The first segment (in an update, the store of the catalog it updates: 2.2 GB at 1M works) is copied by
  // the kernel (copy_file_range, or a reflink where the file system has them): 2.0-2.2 s with the sync at the
  // end against 4.8-5.9 s read and written through a buffer here.
  const [first] = segments
  if (first === undefined) await writeFile(absolute(storePath), '')
  else await copyFile(first.path, absolute(storePath), constants.COPYFILE_FICLONE)
  const out = await open(absolute(storePath), 'r+')
  let position = 0
  let records = 0
  try {
    const buffer = Buffer.allocUnsafe(COPY_CHUNK)
    for (const segment of segments) {
      bases.push({ part: segment.part, base: position })
      if (segment === first) {
        position = (await out.stat()).size
        records += segment.records
        if (segment.removeAfterCopy) await rm(segment.path, { force: true })
        continue
      }
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
