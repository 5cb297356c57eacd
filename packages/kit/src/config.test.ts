import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnvSchema, ConfigError, defaultDataDir, defaultNamespaceOf, loadConfig } from './config';

describe('the bus namespace', () => {
  it('is derived from the data directory when not set, so two checkouts on one nats-server never share events', () => {
    const a = loadConfig(baseEnvSchema, { DATA_DIR: '/srv/vrs-a' }).NATS_NAMESPACE;
    const b = loadConfig(baseEnvSchema, { DATA_DIR: '/srv/vrs-b' }).NATS_NAMESPACE;
    expect(a).toMatch(/^vrs-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
    expect(loadConfig(baseEnvSchema, { DATA_DIR: '/srv/vrs-a/../vrs-a' }).NATS_NAMESPACE).toBe(a);
    expect(loadConfig(baseEnvSchema, {}).NATS_NAMESPACE).toBe(defaultNamespaceOf({ dataDir: defaultDataDir }));
    expect(loadConfig(baseEnvSchema, { NATS_NAMESPACE: '' }).NATS_NAMESPACE).toBe(defaultNamespaceOf({ dataDir: defaultDataDir }));
  });

  it('follows the MongoDB URL when state lives there: processes sharing a database share events', () => {
    const mongodbUrl = 'mongodb://db.internal:27017/?replicaSet=rs0';
    const one = loadConfig(baseEnvSchema, { MONGODB_URL: mongodbUrl, DATA_DIR: join('/tmp', 'one') }).NATS_NAMESPACE;
    const two = loadConfig(baseEnvSchema, { MONGODB_URL: mongodbUrl, DATA_DIR: join('/tmp', 'two') }).NATS_NAMESPACE;
    expect(one).toBe(two);
    expect(one).not.toBe(loadConfig(baseEnvSchema, { DATA_DIR: '/tmp/one' }).NATS_NAMESPACE);
  });

  it('is taken as given when set, and refused when malformed', () => {
    expect(loadConfig(baseEnvSchema, { NATS_NAMESPACE: 'staging_1' }).NATS_NAMESPACE).toBe('staging_1');
    expect(() => loadConfig(baseEnvSchema, { NATS_NAMESPACE: 'has spaces' })).toThrow(ConfigError);
  });
});
