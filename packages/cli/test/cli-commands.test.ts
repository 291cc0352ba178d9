import { spawn, spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { runCli } from '@oqlkit/cli'
import { describe, expect, it } from 'vitest'
import { builtCli } from './support/built-cli.ts'

describe('the oqlkit command', () => {
  it('prints its usage for help and for no command', async () => {
    for (const argv of [[], ['help'], ['--help']]) {
      const result = await runCli(argv)
      expect(result.exitCode).toBe(0)
      expect(result.stdout).toContain('Usage: oqlkit <command>')
      expect(result.stdout).toContain('serve')
    }
  })

  it('prints a command’s usage for --help and -h, doing nothing else', async () => {
    for (const argv of [
      ['ingest', '--help'],
      ['serve', '-h'],
      ['keys', 'create', '--help'],
    ]) {
      const result = await runCli(argv)
      expect(result.exitCode, argv.join(' ')).toBe(0)
      expect(result.stdout).toContain(`Usage: oqlkit ${argv[0]}`)
      expect(result.stderr).toBeUndefined()
    }
  })

  it('rejects an unknown command with exit code 2 and the list of commands', async () => {
    const result = await runCli(['sevre'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain("unknown command 'sevre'")
    expect(result.stderr).toContain('serve')
  })

  it('says which command a mistyped one most likely meant, and none when nothing is close', async () => {
    expect((await runCli(['ingst'])).stderr).toContain("unknown command 'ingst'. Did you mean 'ingest'?")
    expect((await runCli(['quey'])).stderr).toContain("Did you mean 'query'?")
    expect((await runCli(['xyz'])).stderr).not.toContain('Did you mean')
  })

  it('runs as a real process through the bin script', () => {
    const bin = resolve(import.meta.dirname, '../bin/oqlkit.js')
    const ok = spawnSync(process.execPath, [bin, 'help'], { encoding: 'utf8' })
    expect(ok.status).toBe(0)
    expect(ok.stdout).toContain('Usage: oqlkit')
    const bad = spawnSync(process.execPath, [bin, 'nope'], { encoding: 'utf8' })
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain("unknown command 'nope'")
  })

  it('stops quietly when the reader of its output goes away, as `| head -c 100` does', async () => {
    const bin = await builtCli()
    // A few megabytes of output: the pipe closes while most of it is still to be written.
    const text = `works where ${Array.from({ length: 20_000 }, () => 'year is 2020').join(' and ')}`
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((done, fail) => {
      const child = spawn(process.execPath, [bin, 'translate', '-'], { stdio: ['pipe', 'pipe', 'pipe'] })
      let errors = ''
      child.stdout.once('data', () => child.stdout.destroy())
      child.stderr.on('data', (chunk: Buffer) => {
        errors += chunk.toString('utf8')
      })
      child.on('error', fail)
      child.on('close', (exit) => done({ code: exit, stderr: errors }))
      child.stdin.end(text)
    })
    expect(stderr).toBe('')
    expect(code).toBe(0)
  }, 60_000)
})
