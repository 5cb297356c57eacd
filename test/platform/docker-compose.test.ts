import { spawnSync } from 'node:child_process';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '@vrs/kit';
import { serviceNames } from '@vrs/contracts';
import { buildBundles } from '@vrs/testing/build-bundles';
import { makeTempDir } from '@vrs/testing/temp-dir';

// No Docker engine runs on our build machines, so the compose file is checked here instead of
// being run: it must keep describing the system the code actually is.
describe('docker-compose.yml', async () => {
  const compose = parse(await readFile(join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true });
  const services = compose.services as Record<string, any>;
  // The containers run the bundles the image builds (`npm run build`, ADR 0043): build them here too.
  await buildBundles();

  const natsNodes = ['nats-1', 'nats-2', 'nats-3'];
  /** The value after `flag` in a node's command line. */
  /** Whether `name` starts only once `dependency` is healthy, directly or through what it waits for. */
  const startsAfterHealthy = (name: string, dependency: string): boolean =>
    Object.entries((services[name].depends_on ?? {}) as Record<string, { condition: string }>).some(
      ([other, { condition }]) => (other === dependency && condition === 'service_healthy') || startsAfterHealthy(other, dependency),
    );
  const argOf = (command: string[], flag: string) => command[command.indexOf(flag) + 1];

  it('runs MongoDB as a single-node replica set', () => {
    expect(services.mongo.command).toEqual(expect.arrayContaining(['--replSet', 'rs0']));
    expect(services.mongo.healthcheck.test.join(' ')).toContain('rs.initiate');
  });

  it('runs NATS as a 3-node JetStream cluster, each node routed to the other two, with a store of its own', () => {
    expect(Object.keys(services).filter((name) => name.startsWith('nats'))).toEqual(natsNodes);
    const stores = new Set<string>();
    for (const name of natsNodes) {
      const { command, volumes, healthcheck } = services[name] as { command: string[]; volumes: string[]; healthcheck: { test: string[] } };
      expect(command, name).toContain('-js');
      expect(argOf(command, '-n'), name).toBe(name);
      expect(argOf(command, '--cluster_name'), name).toBe('vrs');
      expect(argOf(command, '--cluster'), name).toBe('nats://0.0.0.0:6222');
      const routes = argOf(command, '--routes')!
        .split(',')
        .map((route) => new URL(route).hostname);
      expect(routes.sort(), name).toEqual(natsNodes.filter((other) => other !== name));
      const store = argOf(command, '-sd')!;
      const volume = volumes.find((mount) => mount.endsWith(`:${store}`))!.split(':')[0]!;
      expect(compose.volumes, name).toHaveProperty(volume);
      stores.add(volume);
      // Healthy only once JetStream is (a meta leader elected), not merely enabled.
      expect(healthcheck.test.at(-1), name).toBe('http://127.0.0.1:8222/healthz');
      expect(argOf(command, '-m'), name).toBe('8222');
    }
    expect(stores.size).toBe(natsNodes.length);
  });

  it('has one container per service that exists in the repo, plus the gateway, from one image in http mode', () => {
    const implemented = serviceNames.filter((name) => existsSync(join(repoRoot, 'services', name, 'src', 'main.ts')));
    expect(implemented.length).toBeGreaterThan(0);
    for (const name of [...implemented, 'gateway']) {
      const container = services[name];
      expect(container, name).toBeDefined();
      expect(container.build).toBe('.');
      expect(container.environment.SERVICES_MODE).toBe('http');
      expect(container.environment.MONGODB_URL).toMatch(/^mongodb:\/\/mongo:27017\/\?replicaSet=rs0$/);
      // Every node, so the client fails over; three copies of every stream and bucket.
      expect(container.environment.NATS_URL.split(','), name).toEqual(natsNodes.map((node) => `nats://${node}:4222`));
      expect(container.environment.NATS_STREAM_REPLICAS, name).toBe('3');
      for (const node of natsNodes) expect(startsAfterHealthy(name, node), `${name} after ${node}`).toBe(true);
      const entry = container.command.at(-1) as string;
      expect(existsSync(join(repoRoot, entry)), entry).toBe(true);
    }
    for (const name of implemented) {
      const url = new URL(services.gateway.environment[`${name.toUpperCase()}_SERVICE_URL`]);
      expect(url.hostname).toBe(name);
    }
    expect(services.gateway.environment.DEMO_MODE).toBe('false');
  });

  it('sends every process’s traces where OTEL_EXPORTER_OTLP_ENDPOINT says, to Jaeger in the observability profile', () => {
    for (const name of Object.keys(services).filter((name) => services[name].build === '.')) {
      // Unset unless the operator sets it: tracing off, and nothing of OpenTelemetry loaded (ADR 0102).
      expect(services[name].environment.OTEL_EXPORTER_OTLP_ENDPOINT, name).toBe(`\${OTEL_EXPORTER_OTLP_ENDPOINT:-}`);
      expect(services[name].profiles, name).toBeUndefined();
    }
    expect(services.jaeger.profiles).toEqual(['observability']);
    expect(services.jaeger.image).toMatch(/^jaegertracing\/jaeger:2\.\d+\.\d+$/);
  });

  it('builds from a Dockerfile that installs with npm ci from the committed lock file', async () => {
    const dockerfile = await readFile(join(repoRoot, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/npm ci/);
    const copied = [...dockerfile.matchAll(/^COPY (\S+)\/package\.json/gm)].map((match) => match[1]!);
    for (const dir of copied) expect(existsSync(join(repoRoot, dir, 'package.json')), dir).toBe(true);
    // npm ci refuses a lock file naming a workspace whose package.json the image lacks.
    const lock = JSON.parse(await readFile(join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { link?: boolean }>;
    };
    const workspaces = Object.keys(lock.packages).filter((path) => path !== '' && !path.startsWith('node_modules/'));
    expect(copied.sort()).toEqual(workspaces.sort());
  });

  it('builds the bundles from the copied sources and runs the gateway bundle by default', async () => {
    const dockerfile = await readFile(join(repoRoot, 'Dockerfile'), 'utf8');
    const copyAll = dockerfile.indexOf('COPY . .');
    const build = dockerfile.search(/^RUN node scripts\/build\.mjs$/m);
    expect(copyAll).toBeGreaterThan(0);
    expect(build).toBeGreaterThan(copyAll);
    const command = JSON.parse(/^CMD (.+)$/m.exec(dockerfile)![1]!) as string[];
    expect(command).toEqual(['dist/gateway.mjs']);
    expect(existsSync(join(repoRoot, command[0]!))).toBe(true);
    // NODE_ENV=production before npm ci leaves devDependencies out: the build needs esbuild installed anyway.
    const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies.esbuild).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("sets every process's runtime settings once, in the image: node's flags in its entry point, glibc's in its environment", async () => {
    const dockerfile = await readFile(join(repoRoot, 'Dockerfile'), 'utf8');
    const [node, ...flags] = JSON.parse(/^ENTRYPOINT (.+)$/m.exec(dockerfile)![1]!) as string[];
    expect(node).toBe('node');
    expect(flags).toEqual(['--max-semi-space-size=8', '--v8-pool-size=2', '--heap-growing-percent=30']);
    // This Node takes them (a misspelt V8 flag stops node before it runs anything).
    expect(spawnSync(process.execPath, [...flags, '-e', '0']).status).toBe(0);
    expect(/^ENV (MALLOC_.+)$/m.exec(dockerfile)?.[1]).toBe('MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072');
    // Set after the build, which runs without them.
    const build = dockerfile.search(/^RUN node scripts\/build\.mjs$/m);
    expect(dockerfile.indexOf('ENV MALLOC_')).toBeGreaterThan(build);
    // Every container runs through that entry point, naming only its bundle, and sets none of its own.
    for (const name of Object.keys(services).filter((name) => services[name].build === '.')) {
      expect(services[name].entrypoint, name).toBeUndefined();
      expect(services[name].command, name).toEqual([expect.stringMatching(/^dist\/[a-z-]+\.mjs$/)]);
      expect(
        Object.keys(services[name].environment).filter((setting) => /^(NODE_OPTIONS|MALLOC_)/.test(setting)),
        name,
      ).toEqual([]);
    }
    // `npm start` runs on Node's and glibc's defaults.
    const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts.start).toBe('node scripts/start.mjs');
  });

  it('has an optional Prometheus (profile observability) scraping every process where it listens, with a valid config and alerts', async () => {
    const prometheus = services.prometheus;
    expect(prometheus.profiles).toEqual(['observability']);
    expect(prometheus.volumes).toContain('./docs/prometheus:/etc/prometheus:ro');
    const configDir = join(repoRoot, 'docs', 'prometheus');
    const config = parse(await readFile(join(configDir, 'prometheus.yml'), 'utf8')) as {
      rule_files: string[];
      scrape_configs: { authorization: { credentials_file: string }; static_configs: { targets: string[] }[] }[];
    };
    const targets = config.scrape_configs.flatMap((job) => job.static_configs.flatMap((group) => group.targets));
    const processes = Object.keys(services).filter((name) => services[name].build === '.');
    const listening = processes.map((name) =>
      name === 'gateway'
        ? `gateway:${services.gateway.environment.PORT}`
        : `${name}:${new URL(services.gateway.environment[`${name.toUpperCase()}_SERVICE_URL`]).port}`,
    );
    expect(targets.sort()).toEqual(listening.sort());
    // The bearer token each scrape sends is the file the container writes from METRICS_TOKEN before it starts.
    for (const job of config.scrape_configs) expect(prometheus.command.join(' ')).toContain(`> ${job.authorization.credentials_file}`);

    // promtool (Debian's prometheus package) checks the config and its rule files, with the token file made here.
    const dir = makeTempDir('vrs-prometheus-');
    const token = join(dir, 'metrics-token');
    await writeFile(token, 'token');
    await writeFile(
      join(dir, 'prometheus.yml'),
      (await readFile(join(configDir, 'prometheus.yml'), 'utf8')).replaceAll('/prometheus/metrics-token', token),
    );
    for (const file of config.rule_files) await copyFile(join(configDir, file), join(dir, file));
    const checked = spawnSync('promtool', ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8' });
    if (checked.error) {
      // No promtool here: at least every rule names an alert and an expression.
      for (const file of config.rule_files) {
        const rules = parse(await readFile(join(configDir, file), 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] };
        for (const rule of rules.groups.flatMap((group) => group.rules))
          expect(rule).toMatchObject({ alert: expect.any(String), expr: expect.any(String) });
      }
      return;
    }
    expect({ status: checked.status, output: checked.stdout + checked.stderr }).toMatchObject({ status: 0 });
    expect(checked.stdout).toMatch(/SUCCESS: \d+ rules found/);
  });
});
