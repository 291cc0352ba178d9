// A real Redis Cluster on this machine, for tests: three `redis-server` processes in cluster mode on
// loopback, the 16,384 slots split between them, joined with CLUSTER MEET. It takes about two seconds;
// `redis-cli --cluster create` would do the same in five, as it sleeps between its checks.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'

export interface LocalRedisCluster {
  /** Any one node's address: what `--redis` or `connectRedis` is given. */
  readonly url: string
  readonly ports: readonly number[]
  stop(): Promise<void>
}

const SLOTS = 16_384

/** Thrown when `redis-server` is not installed, so a caller can tell that from a failed start. */
export class RedisServerMissingError extends Error {}

/** A node on a random port; a port already in use makes the server exit, and another is tried. */
const startNode = async (dir: string, command: string): Promise<{ port: number; child: ChildProcess }> => {
  for (let attempt = 0; attempt < 8; attempt++) {
    // The cluster bus listens on port + 10000, so ports stay below 55536.
    const port = 20_000 + Math.floor(Math.random() * 30_000)
    const child = spawn(
      command,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        '2000',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      { stdio: 'ignore' },
    )
    const exited = new Promise<Error>((settle) => {
      child.once('error', (error) => settle(error))
      child.once('exit', (code) => settle(new Error(`redis-server on port ${port} exited with ${code}`)))
    })
    const answered = (async () => {
      for (let tries = 0; tries < 100; tries++) {
        const probe = new Redis<'legacy'>(port, '127.0.0.1', {
          lazyConnect: true,
          retryStrategy: () => null,
          maxRetriesPerRequest: 0,
        })
        probe.on('error', () => {})
        try {
          await probe.connect()
          await probe.ping()
          return true
        } catch {
          await sleep(20)
        } finally {
          probe.disconnect()
        }
      }
      return false
    })()
    const outcome = await Promise.race([answered, exited])
    if (outcome === true) return { port, child }
    child.kill('SIGKILL')
    if (outcome instanceof Error && (outcome as NodeJS.ErrnoException).code === 'ENOENT')
      throw new RedisServerMissingError(`${command} is not installed (Debian's package redis-server)`)
  }
  throw new Error('No free port for a Redis Cluster node after 8 attempts')
}

export const startLocalRedisCluster = async (
  options: { readonly nodes?: number; readonly command?: string } = {},
): Promise<LocalRedisCluster> => {
  const count = options.nodes ?? 3
  const dir = mkdtempSync(join(tmpdir(), 'oqlkit-redis-cluster-'))
  const nodes: { port: number; child: ChildProcess }[] = []
  const stop = async () => {
    await Promise.all(
      nodes.map(
        ({ child }) =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done()
            child.once('exit', () => done())
            child.kill('SIGTERM')
          }),
      ),
    )
    rmSync(dir, { recursive: true, force: true })
  }
  const admins: Redis[] = []
  try {
    for (let i = 0; i < count; i++) nodes.push(await startNode(dir, options.command ?? 'redis-server'))
    // `<'legacy'>` named, not inferred: pushing an inferred Redis into `Redis[]` cost the type check 13 s.
    for (const { port } of nodes)
      admins.push(new Redis<'legacy'>(port, '127.0.0.1', { maxRetriesPerRequest: 1 }))
    // Each node serves an equal share of the slots, then the first introduces itself to the others.
    await Promise.all(
      admins.map((admin, i) =>
        admin.call(
          'CLUSTER',
          'ADDSLOTSRANGE',
          String(Math.floor((SLOTS * i) / count)),
          String(Math.floor((SLOTS * (i + 1)) / count) - 1),
        ),
      ),
    )
    for (const { port } of nodes.slice(1)) await admins[0]!.call('CLUSTER', 'MEET', '127.0.0.1', String(port))
    for (let tries = 0; ; tries++) {
      const infos = await Promise.all(admins.map((admin) => admin.call('CLUSTER', 'INFO') as Promise<string>))
      const ready = infos.every(
        (info) => info.includes('cluster_state:ok') && info.includes(`cluster_known_nodes:${count}`),
      )
      if (ready) break
      if (tries > 200) throw new Error(`The local Redis Cluster did not come up: ${infos.join(' | ')}`)
      await sleep(50)
    }
  } catch (error) {
    for (const admin of admins) admin.disconnect()
    await stop()
    throw error
  }
  for (const admin of admins) admin.disconnect()
  return { url: `redis://127.0.0.1:${nodes[0]!.port}`, ports: nodes.map(({ port }) => port), stop }
}
