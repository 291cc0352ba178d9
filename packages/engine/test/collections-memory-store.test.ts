import { createMemoryCollectionStore } from '@oqlkit/engine'
import { describeCollectionStoreContract } from '@oqlkit/engine/testing'

// The contract's reference run: the in-memory store over the same state machine the embedded store logs.
describeCollectionStoreContract('in memory', { open: async () => createMemoryCollectionStore() })
