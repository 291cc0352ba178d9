import { type CollectionOperation, CollectionState, type Decision } from './collection-state.ts'
import type { CollectionStore } from './collection-store.ts'

/**
 * A `CollectionStore` in memory, for tests and servers that need no collections past their lifetime.
 * Each write decides and applies in one synchronous step, so JavaScript's single thread makes it atomic.
 * `onWrite` sees every operation as it is applied (what a log would record).
 */
export const createMemoryCollectionStore = (
  onWrite: (operation: CollectionOperation) => void = () => {},
): CollectionStore => {
  const state = new CollectionState()
  const commit = <R>(decision: Decision<R>): R => {
    if (decision.operation !== null) {
      onWrite(decision.operation)
      state.apply(decision.operation)
    }
    return decision.result()
  }
  return {
    create: async (draft) => commit(state.decideCreate(draft)),
    get: async (id) => state.get(id),
    list: async (query) => state.list(query),
    update: async (id, update) => commit(state.decideUpdate(id, update)),
    delete: async (id) => commit(state.decideDelete(id)),
    addEntities: async (id, entityIds, entityType, at) =>
      commit(state.decideAdd(id, entityIds, entityType, at)),
    removeEntities: async (id, entityIds, at) => commit(state.decideRemove(id, entityIds, at)),
    members: async (id, offset, limit) => state.members(id, offset, limit),
    close: async () => {},
  }
}
