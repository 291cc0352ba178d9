import { describe, expect, it } from 'vitest'
import { SAMPLE_PROFILE } from '../src/generate/sample-profile.ts'
import { harvestSampleProfile } from '../src/generate/sample-profile-harvester.ts'
import { SAMPLE_SNAPSHOT_DIR } from '../src/sample/bundled-sample-location.ts'

const snapshotDir = SAMPLE_SNAPSHOT_DIR

describe('sample profile', () => {
  it('is what the harvester measures in the bundled sample snapshot', () => {
    const measured = harvestSampleProfile(snapshotDir)
    // Round-trip through JSON: the committed file is JSON (tuples become arrays).
    expect(JSON.parse(JSON.stringify(measured))).toEqual(SAMPLE_PROFILE)
  })

  it('describes every sample work in each per-work histogram', () => {
    const total = (histogram: ReadonlyArray<readonly [unknown, number]>) =>
      histogram.reduce((sum, [, count]) => sum + count, 0)
    for (const histogram of [
      SAMPLE_PROFILE.authorsPerWork,
      SAMPLE_PROFILE.types,
      SAMPLE_PROFILE.oaStatuses,
      SAMPLE_PROFILE.referencedWorksPerWork,
      SAMPLE_PROFILE.topicsPerWork,
    ]) {
      expect(total(histogram)).toBe(SAMPLE_PROFILE.works)
    }
    expect(SAMPLE_PROFILE.works).toBe(565)
    expect(SAMPLE_PROFILE.words.slice(0, 3)).toEqual(['the', 'and', 'of'])
  })
})
