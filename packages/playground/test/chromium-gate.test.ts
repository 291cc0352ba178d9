// The browser tests' gate: without Chromium they skip and say why, unless CI requires them.
import { describe, expect, it, vi } from 'vitest'
import { chromiumForTests } from './support/chromium-browser.ts'

const MISSING = '/nonexistent/oqlkit-test/chromium'

describe('the Chromium gate of the browser tests', () => {
  it('runs them when the binary is there', () => {
    expect(chromiumForTests({}, process.execPath)).toEqual({ available: true, path: process.execPath })
  })

  it('skips them without Chromium and says why on the console', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const gate = chromiumForTests({}, MISSING)
    expect(gate).toEqual({ available: false, reason: expect.stringContaining(`${MISSING} is missing`) })
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/^Skipping the playground's browser tests: .*apt-get install chromium/),
    )
  })

  it('fails instead when OQLKIT_REQUIRE_CHROMIUM=1, as .ci/run sets it', () => {
    expect(() => chromiumForTests({ OQLKIT_REQUIRE_CHROMIUM: '1' }, MISSING)).toThrow(
      /Chromium is required \(OQLKIT_REQUIRE_CHROMIUM=1\)/,
    )
  })

  it('reads OQLKIT_CHROMIUM for another binary', () => {
    expect(chromiumForTests({ OQLKIT_CHROMIUM: process.execPath })).toEqual({
      available: true,
      path: process.execPath,
    })
  })
})
