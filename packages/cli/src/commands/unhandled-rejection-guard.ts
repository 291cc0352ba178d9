/**
 * Keeps a server answering through a promise that was rejected with no handler. Node ends the process on the
 * first such rejection (its default since Node 15), so one forgotten handler on a rare failure path — a
 * statement failing on a deadline while another was not yet awaited — would drop every client's connection.
 * The lint (`noFloatingPromises`) keeps floating promises out of the code; this catches what a lint cannot
 * see (a promise kept and awaited too late, a library's own), logs it as the fault it is, and serves on.
 * Returns what removes the guard again.
 */
export const guardUnhandledRejections = (log: (text: string) => void): (() => void) => {
  const onRejection = (reason: unknown) =>
    log(
      `oqlkit serve: fault: a promise was rejected with no handler; the server goes on serving. ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`,
    )
  process.on('unhandledRejection', onRejection)
  return () => {
    process.off('unhandledRejection', onRejection)
  }
}
