import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBundles } from '@vrs/testing/build-bundles';
import { startNatsCluster, uniqueNamespace, type NatsCluster } from '@vrs/testing/nats';
import { startProcess, type RunningProcess } from '@vrs/testing/processes';
import { parseReplayDirs } from '@vrs/testing/upstreams/youtube/replay-dirs';
import { startFakeYouTube, type FakeYouTube } from '@vrs/testing/upstreams/youtube/server';

/** One process of the stack, which the harness can kill -9 and start again on the same port. */
export interface Member {
  name: string;
  url: string;
  readonly running: boolean;
  kill(): Promise<void>;
  restart(): Promise<void>;
}

export interface ChaosStack {
  env: Record<string, string>;
  nats: NatsCluster;
  youtube: FakeYouTube;
  billing: Member;
  provider: Member;
  research: Member;
  gateways: [Member, Member];
  logDir: string;
  /** Stops everything; the processes' logs are kept under `logDir` when asked (a failed run). */
  stop(options?: { keepLogs?: boolean }): Promise<void>;
}

/** Where services nobody calls here point: a closed port, so nothing of another stack on the machine is reached. */
const nowhere = 'http://127.0.0.1:9';

/**
 * The production shape on one machine: each of billing, provider and research a process of its own
 * (the bundles `npm start` and the image run), two gateway replicas in front, a 3-node NATS cluster
 * of its own with every stream and bucket on three nodes, the fake YouTube upstream.
 */
export async function startChaosStack(settings: { reservationTtlMs: number; sweepIntervalMs: number }): Promise<ChaosStack> {
  const logDir = await mkdtemp(join(tmpdir(), 'vrs-chaos-'));
  const [nats, youtube] = await Promise.all([
    startNatsCluster(3),
    startFakeYouTube({ replayDirs: parseReplayDirs(), log: (line) => appendFileSync(join(logDir, 'fake-youtube.log'), `${line}\n`) }),
    buildBundles(),
  ]);
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    SERVICES_MODE: 'http',
    NATS_URL: nats.url,
    NATS_STREAM_REPLICAS: '3',
    NATS_NAMESPACE: uniqueNamespace('chaos'),
    DATA_DIR: join(logDir, 'data'),
    INTERNAL_TOKEN: randomBytes(24).toString('hex'),
    DEMO_MODE: 'true',
    BILLING_STARTING_CREDITS: '100000',
    BILLING_RESERVATION_TTL_MS: String(settings.reservationTtlMs),
    BILLING_SWEEP_INTERVAL_MS: String(settings.sweepIntervalMs),
    PLAN_FREE_REQUESTS_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_IP: '1000000',
    BUS_ACK_WAIT_MS: '5000',
    YOUTUBE_UPSTREAM_URL: youtube.url,
    YOUTUBE_TIMEOUT_MS: '2000',
    YOUTUBE_RETRIES: '1',
    YOUTUBE_RETRY_BASE_DELAY_MS: '5',
    TRENDS_SERVICE_URL: nowhere,
    MONITORING_SERVICE_URL: nowhere,
    AGENTS_SERVICE_URL: nowhere,
  };
  const members: Member[] = [];

  /** Starts `entry` once on a free port, and again on that port after each kill. */
  async function member(name: string, entry: string, portVariable: 'SERVICE_PORT' | 'PORT', readyMessage: string): Promise<Member> {
    let generation = 0;
    const launch = (port: string) =>
      startProcess({
        name: `${name}-${++generation}`,
        entry,
        env: { ...env, [portVariable]: port },
        logDir,
        readyMessage,
        timeoutMs: 120_000,
      });
    let current: RunningProcess | undefined = await launch('0');
    const url = current.url;
    const handle: Member = {
      name,
      url,
      get running() {
        return current !== undefined;
      },
      async kill() {
        const dying = current;
        current = undefined;
        if (!dying || dying.child.exitCode !== null || dying.child.signalCode !== null) return;
        const exited = new Promise((resolve) => dying.child.once('exit', resolve));
        dying.child.kill('SIGKILL');
        await exited;
      },
      async restart() {
        current ??= await launch(new URL(url).port);
      },
    };
    members.push(handle);
    return handle;
  }

  const service = (name: string) => member(name, `dist/${name}.mjs`, 'SERVICE_PORT', 'service listening');
  const stop = async (options: { keepLogs?: boolean } = {}) => {
    await Promise.all(members.map((m) => m.kill()));
    await nats.stop();
    await youtube.close();
    if (options.keepLogs) console.info(`[chaos] logs kept in ${logDir}`);
    else await rm(logDir, { recursive: true, force: true });
  };
  try {
    const [billing, provider] = await Promise.all([service('billing'), service('provider')]);
    env.BILLING_SERVICE_URL = billing.url;
    env.PROVIDER_SERVICE_URL = provider.url;
    const research = await service('research');
    env.RESEARCH_SERVICE_URL = research.url;
    const gateways = (await Promise.all(
      ['gateway-a', 'gateway-b'].map((name) => member(name, 'dist/gateway.mjs', 'PORT', 'gateway listening')),
    )) as [Member, Member];
    return { env, nats, youtube, billing, provider, research, gateways, logDir, stop };
  } catch (error) {
    await stop({ keepLogs: true });
    throw error;
  }
}
