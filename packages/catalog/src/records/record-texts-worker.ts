// A worker thread of the texts files (record-texts-file.ts): given batches of record locations in one
// record store, it answers each with the records' texts, in the order asked. Reading, decompressing and picking
// are most of the texts pass's time; on workers they use every core while the main thread appends.
import { closeSync, openSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import { type RecordCodecId, recordCodecOf } from './record-codec.ts'
import { type RecordLocations, RecordTextsReader } from './record-texts-reader.ts'

export interface RecordTextsWorkerData {
  readonly entity: string
  readonly storePath: string
  readonly codec: RecordCodecId
  readonly dictionary: Uint8Array
}

export type RecordTextsRequest = ({ readonly kind: 'batch' } & RecordLocations) | { readonly kind: 'stop' }

export type RecordTextsReply =
  | { readonly kind: 'texts'; readonly texts: string[] }
  | { readonly kind: 'failed'; readonly message: string }

const { entity, storePath, codec, dictionary } = workerData as RecordTextsWorkerData
const fd = openSync(storePath, 'r')
const reader = new RecordTextsReader(fd, recordCodecOf(codec, Buffer.from(dictionary)), entity)
const port = parentPort!
// Every batch is answered synchronously, so a stop request is only ever read between batches: closing the
// port then leaves the thread's event loop empty and it exits with code 0 (never terminated inside zlib).
port.on('message', (request: RecordTextsRequest) => {
  if (request.kind === 'stop') {
    closeSync(fd)
    port.close()
    return
  }
  try {
    port.postMessage({ kind: 'texts', texts: reader.textsOf(request) } satisfies RecordTextsReply)
  } catch (error) {
    port.postMessage({ kind: 'failed', message: (error as Error).message } satisfies RecordTextsReply)
  }
})
