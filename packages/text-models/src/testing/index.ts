// Test support of @oqlkit/text-models (`@oqlkit/text-models/testing`): a real HTTP server speaking the
// OpenAI embeddings API, for the tests of the client and of catalogs whose vectors come from a server; and
// an independent cosine for tests of vectors.
export {
  type StandInMode,
  type StandInServer,
  standInVector,
  startStandInServer,
} from './embeddings-stand-in-server.ts'
export { cosineOf } from './vector-cosine.ts'
