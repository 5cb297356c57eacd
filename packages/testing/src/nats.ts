import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface NatsServerHandle {
  url: string;
  /** Stops the server this helper started (a no-op for a server that was already running). */
  stop(): Promise<void>;
}

const startDeadlineMs = 15_000;
const howToGetNats =
  'Tests need a NATS server with JetStream. Either install one (Debian/Ubuntu: `apt-get install nats-server`; ' +
  'or a release binary from https://github.com/nats-io/nats-server/releases on PATH) so the tests can start it, ' +
  'or point NATS_URL at a running server started with `-js` (e.g. NATS_URL=nats://127.0.0.1:4222).';

/** A namespace no other test run (or test file) on a shared server will use. */
export function uniqueNamespace(label: string): string {
  return `t_${label}_${process.pid}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Servers already named in this process: harnesses ask for one per test. */
const announced = new Set<string>();

function log(message: string): void {
  console.info(`[nats] ${message}`);
}

/** What a NATS server at `url` says in its INFO greeting, or undefined when nothing NATS answers there. */
function probeNats(url: string, timeoutMs = 1_000): Promise<{ jetstream: boolean } | undefined> {
  let host: string;
  let port: number;
  try {
    const parsed = new URL(url);
    host = parsed.hostname;
    port = Number(parsed.port || 4222);
  } catch {
    return Promise.resolve(undefined);
  }
  return new Promise((resolve) => {
    const socket = connectTcp({ host, port });
    let received = '';
    const finish = (result: { jetstream: boolean } | undefined) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => finish(undefined));
    socket.once('error', () => finish(undefined));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const end = received.indexOf('\r\n');
      if (end === -1) return;
      const line = received.slice(0, end);
      if (!line.startsWith('INFO ')) return finish(undefined);
      try {
        finish({ jetstream: (JSON.parse(line.slice('INFO '.length)) as { jetstream?: boolean }).jetstream === true });
      } catch {
        finish(undefined);
      }
    });
  });
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findNatsServer(): string | undefined {
  const candidates = (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, 'nats-server'));
  return [...candidates, '/usr/sbin/nats-server'].find(isExecutable);
}

/** Installs Debian's nats-server when we may (root with apt-get); returns the binary or undefined. */
function installNatsServer(): string | undefined {
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) return undefined;
  const install = () =>
    spawnSync('apt-get', ['install', '-y', 'nats-server'], { stdio: 'pipe', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  log('nats-server not found; installing it with apt-get');
  if (install().status !== 0) {
    // A fresh image often has no package lists yet.
    log('apt-get install failed; running apt-get update and retrying');
    spawnSync('apt-get', ['update'], { stdio: 'pipe' });
    const retry = install();
    if (retry.status !== 0) {
      log(`apt-get install nats-server failed: ${(retry.stderr?.toString() ?? '').trim().split('\n').slice(-3).join(' | ')}`);
      return undefined;
    }
  }
  return findNatsServer();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port assigned'))));
    });
  });
}

/** One nats-server process with JetStream on `port`, storing in `storeDir`; resolves once it answers. */
async function spawnNatsServer(binary: string, port: number, storeDir: string, extraArgs: string[] = []) {
  const url = `nats://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir, ...extraArgs], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const halt = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const deadline = Date.now() + startDeadlineMs;
  while (!(await probeNats(url, 500))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await halt();
      throw new Error(
        `nats-server (${binary}) did not come up on ${url} within ${startDeadlineMs} ms: ${stderr.trim() || 'no output'}\n${howToGetNats}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  /** Kill -9: no shutdown, as a crashed machine would go. */
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  return { url, halt, kill };
}

async function startNatsServerFrom(binary: string): Promise<NatsServerHandle> {
  const storeDir = mkdtempSync(join(tmpdir(), 'nats-js-'));
  try {
    const { url, halt } = await spawnNatsServer(binary, await freePort(), storeDir);
    log(`started ${binary} with JetStream at ${url} (store ${storeDir})`);
    return {
      url,
      async stop() {
        await halt();
        rmSync(storeDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(storeDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A NATS server for tests: the one at `preferredUrl` when it answers, otherwise a private nats-server
 * started (and installed when allowed) here. Throws with instructions when neither is possible.
 */
export async function ensureNatsServer(preferredUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222'): Promise<NatsServerHandle> {
  const running = await probeNats(preferredUrl);
  if (running?.jetstream) {
    if (!announced.has(preferredUrl)) log(`using the running server at ${preferredUrl}`);
    announced.add(preferredUrl);
    return { url: preferredUrl, stop: async () => {} };
  }
  if (running) throw new Error(`The NATS server at ${preferredUrl} runs without JetStream. ${howToGetNats}`);
  log(`no server answers at ${preferredUrl}; starting one`);
  const binary = findNatsServer() ?? installNatsServer();
  if (!binary) throw new Error(`No NATS server at ${preferredUrl} and no nats-server binary to start. ${howToGetNats}`);
  return startNatsServerFrom(binary);
}

/** A private nats-server, always started here: for tests that must stop NATS without disturbing anyone. */
export async function startNatsServer(): Promise<NatsServerHandle> {
  const binary = findNatsServer() ?? installNatsServer();
  if (!binary) throw new Error(`No nats-server binary to start. ${howToGetNats}`);
  return startNatsServerFrom(binary);
}

/** A private nats-server a test can take away and bring back, as an outage would. */
export interface RestartableNatsServer extends NatsServerHandle {
  /** Stops the process (SIGTERM), keeping its port and JetStream store: clients see NATS go away. */
  halt(): Promise<void>;
  /** Starts it again on the same port with the same store; clients reconnect by themselves. */
  resume(): Promise<void>;
}

export async function startRestartableNatsServer(): Promise<RestartableNatsServer> {
  const binary = findNatsServer() ?? installNatsServer();
  if (!binary) throw new Error(`No nats-server binary to start. ${howToGetNats}`);
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'nats-js-'));
  let running: Awaited<ReturnType<typeof spawnNatsServer>> | undefined = await spawnNatsServer(binary, port, storeDir);
  log(`started ${binary} with JetStream at ${running.url} (store ${storeDir}, restartable)`);
  const url = running.url;
  const halt = async () => {
    await running?.halt();
    running = undefined;
  };
  return {
    url,
    halt,
    async resume() {
      running ??= await spawnNatsServer(binary, port, storeDir);
    },
    async stop() {
      await halt();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/** One node of a cluster from `startNatsCluster`. */
export interface NatsClusterNode {
  /** Its server name (`-n`), which stream info reports as `cluster.leader` and `cluster.replicas[].name`. */
  name: string;
  url: string;
  readonly running: boolean;
  /** kill -9: the node vanishes mid-write, its store kept for a restart. */
  kill(): Promise<void>;
  /** Starts it again with the same name, ports and store; resolves once it answers. */
  restart(): Promise<void>;
}

export interface NatsCluster {
  /** Every node's URL, comma-separated: what NATS_URL holds for a cluster. */
  url: string;
  nodes: NatsClusterNode[];
  node(name: string): NatsClusterNode;
  /** The node leading `stream`, as the cluster's monitoring endpoints report it (`/jsz`). */
  leaderOf(stream: string): Promise<NatsClusterNode>;
  /** Resolves once every running node reports JetStream healthy (a meta leader elected, its streams current). */
  healthy(timeoutMs?: number): Promise<void>;
  /** Stops every node and deletes their stores. */
  stop(): Promise<void>;
}

const clusterDeadlineMs = 90_000;

interface NodeSpec {
  name: string;
  port: number;
  routePort: number;
  monitorPort: number;
  storeDir: string;
}

/** Whether the node's monitoring endpoint reports JetStream healthy. */
async function jetStreamHealthy(monitorPort: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${monitorPort}/healthz`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * A private JetStream cluster of `size` nats-server processes on free loopback ports (client, route
 * and monitoring ports), stores in a temporary directory: for tests of replication and failover, which
 * must never touch a shared server.
 */
export async function startNatsCluster(size = 3): Promise<NatsCluster> {
  const binary = findNatsServer() ?? installNatsServer();
  if (!binary) throw new Error(`No nats-server binary to start. ${howToGetNats}`);
  const root = mkdtempSync(join(tmpdir(), 'nats-cluster-'));
  const clusterName = `c${process.pid}${Date.now().toString(36)}`;
  const specs: NodeSpec[] = [];
  for (let i = 1; i <= size; i++) {
    specs.push({
      name: `n${i}`,
      port: await freePort(),
      routePort: await freePort(),
      monitorPort: await freePort(),
      storeDir: join(root, `n${i}`),
    });
  }
  const argsOf = (spec: NodeSpec) => [
    '-n',
    spec.name,
    '-m',
    String(spec.monitorPort),
    '--cluster_name',
    clusterName,
    '--cluster',
    `nats://127.0.0.1:${spec.routePort}`,
    '--routes',
    specs
      .filter((other) => other !== spec)
      .map((other) => `nats://127.0.0.1:${other.routePort}`)
      .join(','),
  ];
  const processes = new Map<string, Awaited<ReturnType<typeof spawnNatsServer>>>();
  const start = async (spec: NodeSpec) => {
    processes.set(spec.name, await spawnNatsServer(binary, spec.port, spec.storeDir, argsOf(spec)));
  };

  const nodes: NatsClusterNode[] = specs.map((spec) => ({
    name: spec.name,
    url: `nats://127.0.0.1:${spec.port}`,
    get running() {
      return processes.has(spec.name);
    },
    async kill() {
      await processes.get(spec.name)?.kill();
      processes.delete(spec.name);
    },
    async restart() {
      if (!processes.has(spec.name)) await start(spec);
    },
  }));

  const cluster: NatsCluster = {
    url: nodes.map((node) => node.url).join(','),
    nodes,
    node(name) {
      const found = nodes.find((node) => node.name === name);
      if (!found) throw new Error(`No node ${name} in the cluster (${nodes.map((node) => node.name).join(', ')})`);
      return found;
    },
    async leaderOf(stream) {
      for (const spec of specs.filter((candidate) => processes.has(candidate.name))) {
        try {
          const response = await fetch(`http://127.0.0.1:${spec.monitorPort}/jsz?accounts=true&streams=true`, {
            signal: AbortSignal.timeout(5_000),
          });
          const jsz = (await response.json()) as {
            account_details?: Array<{ stream_detail?: Array<{ name: string; cluster?: { leader?: string } }> }>;
          };
          const found = jsz.account_details?.flatMap((account) => account.stream_detail ?? []).find((detail) => detail.name === stream);
          if (found?.cluster?.leader) return cluster.node(found.cluster.leader);
        } catch {
          // this node does not know; ask the next
        }
      }
      throw new Error(`No running node names a leader of stream ${stream}`);
    },
    async healthy(timeoutMs = clusterDeadlineMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const running = specs.filter((spec) => processes.has(spec.name));
        const health = await Promise.all(running.map((spec) => jetStreamHealthy(spec.monitorPort)));
        if (health.every(Boolean)) return;
        if (Date.now() > deadline) {
          const sick = running.filter((_, i) => !health[i]).map((spec) => spec.name);
          throw new Error(`NATS cluster not healthy within ${timeoutMs} ms: ${sick.join(', ')} not ready`);
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    async stop() {
      await Promise.all([...processes.values()].map((running) => running.halt()));
      processes.clear();
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    // Started together: each node waits for its routes to the others before JetStream elects a meta leader.
    await Promise.all(specs.map(start));
    await cluster.healthy();
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  log(`started a ${size}-node JetStream cluster at ${cluster.url} (stores under ${root})`);
  return cluster;
}
