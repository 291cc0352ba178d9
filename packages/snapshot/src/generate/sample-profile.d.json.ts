// The type checker reads this instead of sample-profile.json (`allowArbitraryExtensions`): inferring the
// type of the JSON's 37,000 lines cost every type check of the repository several seconds, and the profile's
// declared type is what the code relies on anyway (test/generate-sample-profile.test.ts checks the file is
// exactly what the typed harvester returns).
import type { SampleProfile } from './sample-profile.ts'

declare const profile: SampleProfile
export = profile
