// One version for every @oqlkit package, the one the HTTP API announces (API_VERSION, spec/openapi.json), so
// a release bumps them together (changesets' `fixed` group) and nothing reports a stale number; and the files
// every published package carries beside its code.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { API_VERSION } from '@oqlkit/http'
import { describe, expect, it } from 'vitest'

const REPO = resolve(import.meta.dirname, '..')
const PACKAGE_DIRS = readdirSync(join(REPO, 'packages')).map((name) => join(REPO, 'packages', name))

interface PackageJson {
  readonly name: string
  readonly version: string
  readonly dependencies?: Record<string, string>
  readonly devDependencies?: Record<string, string>
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T
const manifests = PACKAGE_DIRS.map((dir) => ({ dir, json: readJson<PackageJson>(join(dir, 'package.json')) }))

describe('package versions', () => {
  it('are one version, the one the HTTP API and its OpenAPI document announce', () => {
    const openapi = readJson<{ info: { version: string } }>(join(REPO, 'spec/openapi.json'))
    expect(manifests.length).toBe(14)
    for (const { json } of manifests) {
      expect(json.version, json.name).toBe(API_VERSION)
      expect(json.version, json.name).toBe(openapi.info.version)
    }
  })

  it('pin each other at that version', () => {
    for (const { json } of manifests)
      for (const deps of [json.dependencies, json.devDependencies])
        for (const [name, range] of Object.entries(deps ?? {}))
          if (name.startsWith('@oqlkit/')) expect(range, `${json.name} → ${name}`).toBe(API_VERSION)
  })

  it('move together in releases: changesets keeps them in one fixed group', () => {
    const config = readJson<{ fixed: string[][] }>(join(REPO, '.changeset/config.json'))
    expect(config.fixed).toContainEqual(['@oqlkit/*'])
  })
})

describe('each package', () => {
  it('carries the MIT licence of the repository, a README and a CHANGELOG entry for its version', () => {
    const license = readFileSync(join(REPO, 'LICENSE'), 'utf8')
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the oqlkit authors\n/)
    for (const { dir, json } of manifests) {
      expect(readFileSync(join(dir, 'LICENSE'), 'utf8'), json.name).toBe(license)
      expect(readFileSync(join(dir, 'README.md'), 'utf8'), json.name).toMatch(new RegExp(`^# ${json.name}\n`))
      expect(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8'), json.name).toContain(`\n## ${json.version}\n`)
    }
  })
})
