// The worker thread of pass 2 (started by work-batch-pool.ts): builds its own pools from (N, seed) while the
// main thread runs pass 1, then the batches it is asked for, over the citation graph the main thread shares.
import { parentPort, workerData } from 'node:worker_threads'
import { createGenerationPools } from './generation-pools.ts'
import { batchTransferList, WorkBatchBuilder } from './work-batch-builder.ts'
import type { BatchWorkerReply, BatchWorkerRequest, BatchWorkerSetup } from './work-batch-pool.ts'

const port = parentPort
if (port === null) throw new Error('work-batch-worker.ts runs as a worker thread (see work-batch-pool.ts)')
const setup = workerData as BatchWorkerSetup
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
      const batch = builder.build(request.index)
      reply({ kind: 'batch', batch }, batchTransferList(batch))
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
