// Runs in a scratch project where the packed tarballs are installed, under plain Node: no export condition,
// no loader. Imports every package by name and calls something real from each; prints what it saw as JSON.
import { readClickHouseTarget } from '@oqlkit/adapter-clickhouse'
import { openDuckDbDatabase } from '@oqlkit/adapter-duckdb'
import { DEFAULT_REDIS_URL } from '@oqlkit/adapter-redis'
import { zstdBackend } from '@oqlkit/catalog'
import { runCli } from '@oqlkit/cli'
import { decodeCursor, encodeCursor } from '@oqlkit/engine'
import { API_VERSION, buildOpenApiDocument } from '@oqlkit/http'
import { translate } from '@oqlkit/oql'
import { validateOqo } from '@oqlkit/oqo-schema'
import { poolSizes } from '@oqlkit/snapshot'
import { porterStem } from '@oqlkit/text-models'

const translated = translate({ oql: 'works where year is 2020' })
const db = await openDuckDbDatabase()
const [row] = await db.all('SELECT 40 + ? AS answer', [2])
await db.close()
const cli = await runCli(['translate', 'works where year is 2020'])

process.stdout.write(
  JSON.stringify({
    oxurl: translated.oxurl,
    oqoValid: validateOqo(translated.oqo).valid,
    cursor: decodeCursor(encodeCursor('cited_by_count:desc', [7, 'W1']), 'cited_by_count:desc'),
    stem: porterStem('running'),
    poolAuthorsPositive: poolSizes(1000).authors > 0,
    duckdbAnswer: Number(row?.answer),
    redisUrl: DEFAULT_REDIS_URL,
    clickhouseCatalog: readClickHouseTarget('clickhouse://localhost/openalex').catalog,
    apiVersion: API_VERSION,
    openApiVersion: buildOpenApiDocument().info.version,
    cliExitCode: cli.exitCode,
    cliOxurl: JSON.parse(cli.stdout ?? '{}').oxurl,
    zstd: zstdBackend.name,
  }),
)
