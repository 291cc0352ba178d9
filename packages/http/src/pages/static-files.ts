import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { extname, join } from 'node:path'

/** A file served as it is: its bytes, media type and a strong ETag of its content. */
export interface StaticFile {
  readonly body: Uint8Array
  readonly type: string
  readonly etag: string
}

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.LICENSE': 'text/plain; charset=utf-8',
}

const staticFileOf = (body: Uint8Array, name: string): StaticFile => ({
  body,
  type: MEDIA_TYPES[extname(name)] ?? 'application/octet-stream',
  etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
})

/**
 * The files of one folder, read together on first use and then kept: the pages' assets are a few
 * megabytes, and reading them per request would put disk reads on every page load. Only names the
 * folder held are served, so a request path can never reach another file. An unreadable folder is
 * undefined (not thrown): the route answers why.
 */
export const staticFolder = (folder: () => string): (() => ReadonlyMap<string, StaticFile> | undefined) => {
  let files: ReadonlyMap<string, StaticFile> | undefined
  return () => {
    if (files !== undefined) return files
    try {
      const dir = folder()
      files = new Map(
        readdirSync(dir, { withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => [entry.name, staticFileOf(readFileSync(join(dir, entry.name)), entry.name)]),
      )
    } catch {
      return undefined
    }
    return files
  }
}

/**
 * The file as a response: cacheable but revalidated on each load (`no-cache` with an ETag), so a new build
 * is picked up at once and an unchanged one costs a 304.
 */
export const staticResponse = (
  file: StaticFile,
  request: Request,
  headers: Readonly<Record<string, string>> = {},
): Response => {
  const common = new Headers(headers)
  common.set('etag', file.etag)
  common.set('cache-control', 'no-cache')
  const ifNoneMatch = request.headers.get('if-none-match')
  if (ifNoneMatch?.split(',').some((tag) => tag.trim() === file.etag))
    return new Response(null, { status: 304, headers: common })
  common.set('content-type', file.type)
  return new Response(file.body, { status: 200, headers: common })
}
