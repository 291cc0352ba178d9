// The type checker reads this instead of properties-snapshot.json (`allowArbitraryExtensions`): inferring the
// type of the JSON's 11,000 lines cost every type check of the repository seconds, and the registry reads it
// through its declared shape anyway.
import type { PropertiesSnapshot } from './properties-registry.ts'

declare const snapshot: PropertiesSnapshot
export = snapshot
