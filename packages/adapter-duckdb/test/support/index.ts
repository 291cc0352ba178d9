// @oqlkit/adapter-duckdb's test fixtures, for the tests of other packages
// (`@oqlkit/adapter-duckdb/test-support`, an export of the source condition only: it is never published): the
// sample catalog opened through the adapter and as a raw DuckDB connection.
export { useSampleCatalogConnections } from '../query-sample-fixture.ts'
