// `oqlkit serve`'s command line: what the parser reads and `--help` prints (command-line-parser.ts). The
// defaults named in the help are the servers' own (DEFAULT_HOST, DEFAULT_MAX_PER_PAGE, …): a test checks each
// text against the constant, since importing them here would load h3 and the engine for `--help`.
import type { CommandLine } from './command-line-parser.ts'
import { DEFAULT_CATALOG_DIR } from './ingest-command-line.ts'
import { STORE_OPTIONS } from './store-options.ts'

export const DEFAULT_PORT = 8080

/** The bundled samples `--sample` builds a first catalog from: the small one, or the real works of five reviews. */
export const SAMPLES = ['small', 'real'] as const
export type SampleName = (typeof SAMPLES)[number]

/** Where `--sample real` builds and finds its catalog unless `--catalog` says otherwise. */
export const DEFAULT_REAL_SAMPLE_CATALOG_DIR = '.catalog-real'

/** The most a page may hold with `--max-per-page` (the paging depth of the API). */
export const MAX_PER_PAGE_LIMIT = 10_000

export const SERVE_COMMAND_LINE = {
  synopsis:
    'oqlkit serve [--catalog DIR | --catalog NAME=DIR … | --clickhouse URL] [--sample small|real] [options]',
  options: {
    catalog: {
      type: 'string',
      value: 'a catalog folder, or NAME=DIR',
      placeholder: 'DIR|NAME=DIR',
      multiple: true,
      help: `The catalog folder to serve (default ${DEFAULT_CATALOG_DIR}). Without a catalog yet, the default folder (or an empty one given) gets the bundled sample built into it first. Repeat it as NAME=DIR to serve several versions of the data at once: a request picks one with data_version=NAME, and gets the first without.`,
    },
    clickhouse: {
      type: 'string',
      value: 'a ClickHouse URL such as http://localhost:8123/oqlkit',
      placeholder: 'URL',
      help: 'Serve the catalog `oqlkit load` put into this ClickHouse instead of a folder: its newest version by default, each version a load keeps with data_version=<its database>, a new load served within a second.',
    },
    host: {
      type: 'string',
      value: 'an address to listen on (127.0.0.1, 0.0.0.0, ::)',
      placeholder: 'ADDR',
      help: 'The address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for every interface).',
    },
    port: {
      type: 'string',
      value: 'a port number',
      placeholder: 'N',
      help: `The port (default $PORT, else ${DEFAULT_PORT}).`,
    },
    sample: {
      type: 'string',
      value: 'small or real',
      placeholder: 'NAME',
      help: `The bundled sample a catalog is built from when there is none yet: small (the default; ${DEFAULT_CATALOG_DIR}) or real, 4,431 real works with abstracts to try search and semantic search on (${DEFAULT_REAL_SAMPLE_CATALOG_DIR}; about a minute to build, once).`,
    },
    metering: {
      type: 'boolean',
      help: 'Price every call and hold each caller (key or address) to a daily budget and a request rate; /rate-limit reports it.',
    },
    'no-metering': { type: 'boolean', help: 'Serve unmetered even with --keys or --redis.' },
    keys: {
      type: 'string',
      value: 'a JSON file of keys',
      placeholder: 'FILE',
      help: 'API keys to accept, from a JSON file, beside those `oqlkit keys` issued (turns metering on).',
    },
    ...STORE_OPTIONS,
    'collections-dir': {
      type: 'string',
      value: 'a folder for the collections',
      placeholder: 'DIR',
      help: "Where private collections are kept (default the state folder's collections/, or Redis with --redis).",
    },
    'no-collections': { type: 'boolean', help: 'Serve no collection endpoints.' },
    'collections-port': {
      type: 'string',
      value: 'a port number',
      placeholder: 'N',
      help: 'Serve the collection endpoints on a port of their own instead of beside the API.',
    },
    'cors-origin': {
      type: 'string',
      value: 'an origin such as https://app.example, * or off',
      placeholder: 'ORIGIN',
      multiple: true,
      help: 'An origin browsers may call from (repeatable; default every origin, *); off sends no CORS headers.',
    },
    'trust-proxy': {
      type: 'string',
      value: 'a hop count or a list of proxy addresses and CIDR ranges',
      placeholder: 'HOPS|CIDR,...',
      help: "Take the caller's address from X-Forwarded-For behind this many proxies, or behind these addresses (default: the connection's address).",
    },
    'access-log': {
      type: 'string',
      value: 'a file, - (stdout), stderr or off',
      placeholder: 'FILE|-|stderr|off',
      help: 'Where the JSON access log goes, a line per request (default -, standard output).',
    },
    'no-compression': {
      type: 'boolean',
      help: 'Send responses uncompressed (default: gzip or brotli when asked).',
    },
    'embeddings-url': {
      type: 'string',
      value: 'the URL of an OpenAI-compatible embeddings server',
      placeholder: 'URL',
      help: "Embed semantic queries with this server (the catalog's vectors must come from the same model).",
    },
    'embeddings-model': {
      type: 'string',
      value: 'the name of the server’s model',
      placeholder: 'M',
      help: 'The model the embeddings server runs (default the one the catalog records).',
    },
    'max-per-page': {
      type: 'string',
      value: `a whole number from 1 to ${MAX_PER_PAGE_LIMIT}`,
      placeholder: 'N',
      help: 'The most results a page may hold (default 200, as the public server; 100 holds to the API description).',
    },
    'query-timeout': {
      type: 'string',
      value: 'a number of seconds above 0, at most 3600',
      placeholder: 'SECONDS',
      help: 'The time budget of one request (default 10 s); past it the query is stopped and answered 503.',
    },
  },
} as const satisfies CommandLine
