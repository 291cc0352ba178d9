// Decides whether the tests that need the zstd command (dictionary training) run. With OQLKIT_REQUIRE_ZSTD=1
// (as `.ci/run` sets it, after installing Debian's zstd when missing) a missing command fails them, so CI never
// passes by skipping; without it they skip and say why.
import { spawnSync } from 'node:child_process'

export const REQUIRE_ZSTD_VARIABLE = 'OQLKIT_REQUIRE_ZSTD'

/** Whether `zstd` runs here; throws when it does not and the environment requires it. */
export function zstdCommandForTests(
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  const probe = spawnSync('zstd', ['--version'], { encoding: 'utf8' })
  if (probe.status === 0) return true
  const required = env[REQUIRE_ZSTD_VARIABLE] === '1' || env[REQUIRE_ZSTD_VARIABLE] === 'true'
  const why = probe.error?.message ?? `exit ${probe.status}: ${probe.stderr}`
  if (required)
    throw new Error(
      `The zstd command is required (${REQUIRE_ZSTD_VARIABLE}=1) but did not run (${why}). Install it (apt-get install zstd) or unset ${REQUIRE_ZSTD_VARIABLE}.`,
    )
  console.warn(`Skipping the tests that train zstd dictionaries: the zstd command did not run (${why}).`)
  return false
}
