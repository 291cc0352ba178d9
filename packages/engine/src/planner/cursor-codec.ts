// A cursor carries the sort-key values of the last row of a page. It is opaque to clients: base64url
// of a small JSON document that also names the sort, so a cursor cannot be replayed on another order.

interface CursorDocument {
  readonly v: 1
  readonly sort: string
  readonly after: readonly unknown[]
}

const toBase64Url = (text: string): string => {
  const bytes = new TextEncoder().encode(text)
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

const fromBase64Url = (text: string): string => {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'))
  return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)))
}

export const encodeCursor = (sortSignature: string, after: readonly unknown[]): string =>
  toBase64Url(JSON.stringify({ v: 1, sort: sortSignature, after } satisfies CursorDocument))

/** The `after` values of a cursor issued for this sort, or undefined when it is not such a cursor. */
export const decodeCursor = (cursor: string, sortSignature: string): readonly unknown[] | undefined => {
  try {
    const document = JSON.parse(fromBase64Url(cursor)) as Partial<CursorDocument>
    if (document.v !== 1 || document.sort !== sortSignature || !Array.isArray(document.after))
      return undefined
    return document.after
  } catch {
    return undefined
  }
}
