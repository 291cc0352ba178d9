// @oqlkit/adapter-clickhouse's test fixtures, for the tests, scripts and benches of other packages
// (`@oqlkit/adapter-clickhouse/test-support`, an export of the source condition only: it is never published):
// chDB behind ClickHouse's HTTP interface, standing in for a server, one of the caller's own or the process's
// shared one; a catalog loaded as `oqlkit load` loads it (a format-9 catalog's tables exported first); and the
// sample catalog loaded once per test run and copied into the shared one.

export { loadCatalogExportingTables, withCatalogTableFiles } from './catalog-table-files.ts'
export {
  type ChdbAvailability,
  chdbForTests,
  chdbInstalled,
  REQUIRE_CHDB_VARIABLE,
} from './chdb-availability.ts'
export { type ChdbHttpServer, sharedChdbHttpServer, startChdbHttpServer } from './chdb-http-server.ts'
export { type SharedClickHouseSample, sharedClickHouseSample } from './shared-clickhouse-sample.ts'
