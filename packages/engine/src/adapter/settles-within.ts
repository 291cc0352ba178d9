/**
 * Whether `work` settles (resolves or rejects) within `ms`; the work goes on either way. What a shutdown waits
 * with: for requests to finish, for interrupted statements to stop, for answers to be written, each for a
 * bounded time, so that no step can hold a stopping server open.
 */
export const settlesWithin = async (work: Promise<unknown>, ms: number): Promise<boolean> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  const settled = work.then(
    () => true,
    () => true,
  )
  try {
    return await Promise.race([settled, timeout])
  } finally {
    clearTimeout(timer)
  }
}
