import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { credentialsPath, readCredential, removeCredential, saveCredential } from './credentials';

describe('stored credentials', () => {
  it('lives under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(credentialsPath({ XDG_CONFIG_HOME: '/x/config' })).toBe('/x/config/vrs/credentials.json');
    if (process.platform !== 'win32') expect(credentialsPath({ HOME: '/home/ana' })).toBe('/home/ana/.config/vrs/credentials.json');
  });

  it('stores one credential per API origin with mode 0600, and forgets them one by one', async () => {
    const path = join(makeTempDir('vrs-credentials-'), 'vrs', 'credentials.json');
    const session = { token: 'atc_1', kind: 'cli_session' as const, savedAt: '2026-01-01T00:00:00.000Z' };
    await saveCredential('https://a.test', session, path);
    await saveCredential('https://b.test', { ...session, token: 'aty_2', kind: 'api_key' }, path);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readCredential('https://a.test', path)).toEqual(session);
    expect((await readCredential('https://b.test', path))?.token).toBe('aty_2');
    expect(await readCredential('https://c.test', path)).toBeUndefined();

    expect(await removeCredential('https://a.test', path)).toBe(true);
    expect(await removeCredential('https://a.test', path)).toBe(false);
    expect(JSON.parse(await readFile(path, 'utf8')).credentials).toEqual({ 'https://b.test': expect.any(Object) });
    await removeCredential('https://b.test', path);
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
  });

  it('tightens a file that existed with looser permissions', async () => {
    const path = join(makeTempDir('vrs-credentials-'), 'credentials.json');
    await writeFile(path, '{}', { mode: 0o644 });
    await saveCredential('https://a.test', { token: 't', kind: 'api_key', savedAt: 'now' }, path);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });
});
