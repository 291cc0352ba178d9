/**
 * A type guard that recognises an engine error by its `name`, so an error thrown by another copy of this
 * package (another version installed beside this one) counts too, where `instanceof` would not.
 */
export const namedErrorGuard =
  <E extends Error>(name: E['name']) =>
  (error: unknown): error is E =>
    error instanceof Error && error.name === name
