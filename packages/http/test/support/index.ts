// @oqlkit/http's test fixtures, for the tests and scripts of other packages (`@oqlkit/http/test-support`, an
// export of the source condition only: it is never published): the sample's records, the sample catalog loaded
// into a stand-in ClickHouse, and the HTTP surface fuzz (its hostile requests, the app it sends them to).
export { openClickHouseSample, openSharedClickHouseSample } from './clickhouse-sample.ts'
export { cheapRequestAnswered, listen, type Outcome, openFuzzApp, sendHostile, sendRaw } from './fuzz-app.ts'
export { describeRequest, hostileRequest, judgeAnswer, rawRequest } from './hostile-requests.ts'
export { coreWorks, SAMPLE_SNAPSHOT_DIR } from './sample-records.ts'
