// Loaded into a test's `oqlkit serve` process with node's --import: on SIGUSR2 it rejects a promise that no
// code handles, as a forgotten handler on a rare failure path would, so a test can see what the server does.
process.on('SIGUSR2', () => {
  // biome-ignore lint/nursery/noFloatingPromises: the unhandled rejection is what this module exists to cause
  Promise.reject(new Error('a background promise rejected (test preload)'))
})
