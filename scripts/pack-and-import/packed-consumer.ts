// Compiled by tsc in a scratch project where the packed tarballs are installed (under module NodeNext and
// under moduleResolution Bundler): the published .d.ts files must resolve and type the public API.
import { type DuckDbDatabaseOptions, openDuckDbDatabase } from '@oqlkit/adapter-duckdb'
import { DEFAULT_REDIS_URL } from '@oqlkit/adapter-redis'
import { type CommandResult, runCli } from '@oqlkit/cli'
import { encodeCursor } from '@oqlkit/engine'
import { API_VERSION, createApp } from '@oqlkit/http'
import { translate } from '@oqlkit/oql'
import { type OqoValidation, validateOqo } from '@oqlkit/oqo-schema'
import { poolSizes } from '@oqlkit/snapshot'
import { porterStem } from '@oqlkit/text-models'

const options: DuckDbDatabaseOptions = { threads: 2 }
const result = translate({ oql: 'works where year is 2020' })
const url: string | null = result.oxurl
const validation: OqoValidation = validateOqo(result.oqo)
const cli: Promise<CommandResult> = runCli(['--help'])
const summary: string = [url, validation.valid, encodeCursor('id', [1]), porterStem('running')].join(' ')
const authors: number = poolSizes(1000).authors
const version: string = API_VERSION

export { authors, cli, createApp, DEFAULT_REDIS_URL, openDuckDbDatabase, options, summary, version }

// The types are real, not `any` (which a declaration file that failed to resolve would leave): each wrong
// use below must be an error, or its @ts-expect-error is itself one.
// @ts-expect-error oxurl is a string or null
export const wrongUrl: number = result.oxurl
// @ts-expect-error valid is a boolean
export const wrongValid: string = validation.valid
// @ts-expect-error a cursor is a string
export const wrongCursor: number = encodeCursor('id', [1])
// @ts-expect-error porterStem stems a string
porterStem(1)
// @ts-expect-error pool sizes are numbers
export const wrongAuthors: string = poolSizes(1000).authors
// @ts-expect-error threads is a number
export const wrongOptions: DuckDbDatabaseOptions = { threads: 'four' }
// @ts-expect-error the Redis URL is a string
export const wrongRedis: number = DEFAULT_REDIS_URL
// @ts-expect-error the API version is a string
export const wrongVersion: number = API_VERSION
// @ts-expect-error runCli takes the arguments as an array
runCli('--help')
