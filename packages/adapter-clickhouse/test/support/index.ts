// @oqlkit/adapter-clickhouse's test fixtures, for the tests, scripts and benches of other packages
// (`@oqlkit/adapter-clickhouse/test-support`, an export of the source condition only: it is never published):
// chDB behind ClickHouse's HTTP interface, standing in for a server.
export { type ChdbHttpServer, startChdbHttpServer } from './chdb-http-server.ts'
