// The worker thread of pass 2 (started by work-batch-pool.ts): builds its own pools from (N, seed) while the
// main thread runs pass 1, then the batches it is asked for, over the citation graph the main thread shares,
// each batch's text into the shared slot the request names.
import { parentPort, workerData } from 'node:worker_threads'
import { createGenerationPools } from './generation-pools.ts'
import { WorkBatchBuilder } from './work-batch-builder.ts'
import type { BatchWorkerReply, BatchWorkerRequest, BatchWorkerSetup } from './work-batch-pool.ts'

const port = parentPort
if (port === null) throw new Error('work-batch-worker.ts runs as a worker thread (see work-batch-pool.ts)')
const setup = workerData as BatchWorkerSetup
const slots = setup.slots.map((slot) => Buffer.from(slot))
const pools = createGenerationPools(setup.works, setup.seed)
let builder: WorkBatchBuilder | undefined

const reply = (message: BatchWorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer)

port.on('message', (request: BatchWorkerRequest) => {
  switch (request.kind) {
    case 'graph':
      builder = new WorkBatchBuilder(setup.works, setup.seed, pools, request.graph)
      break
    case 'batch': {
      if (builder === undefined) throw new Error('a batch was asked for before the citation graph')
      const slot = slots[request.slot]!
      const { bytes, ...batch } = builder.build(request.index, slot)
      // Text that outgrew the slot came in a buffer of its own, sent along (rare: 32 kB a work fit).
      const overflow = bytes.buffer === slot.buffer ? null : bytes
      const transfer = [batch.ends, batch.partitions, batch.isOa, batch.primaryTopic, batch.links].map(
        (array) => array.buffer as ArrayBuffer,
      )
      if (overflow !== null) transfer.push(overflow.buffer as ArrayBuffer)
      reply({ kind: 'batch', batch, textLength: bytes.length, overflow }, transfer)
      break
    }
    case 'totals':
      if (builder === undefined) throw new Error('totals were asked for before the citation graph')
      reply({ kind: 'totals', totals: builder.totals() })
      builder.close()
      builder = undefined
      break
  }
})
