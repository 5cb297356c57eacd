import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, fetch } from 'undici';
import { describe, expect, it } from 'vitest';
import type { AppError } from '@vrs/kit';
import { checkWebhookUrl, isRefusedAddress, RefusedTargetError, refusedLiteral, refusingLookup } from './target-url';

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as AppError).code;
  }
  return 'accepted';
};

/** One address inside each special-purpose range of IANA's IPv4 registry (and multicast), with its neighbours outside. */
const ipv4Special: [range: string, inside: string[], outside: string[]][] = [
  ['0.0.0.0/8', ['0.0.0.0', '0.255.255.255'], ['1.0.0.0']],
  ['10.0.0.0/8', ['10.0.0.1', '10.255.255.255'], ['11.0.0.0', '9.255.255.255']],
  ['100.64.0.0/10', ['100.64.0.0', '100.127.255.255'], ['100.63.255.255', '100.128.0.0']],
  ['127.0.0.0/8', ['127.0.0.1', '127.255.255.254'], ['128.0.0.1']],
  ['169.254.0.0/16', ['169.254.169.254'], ['169.253.255.255', '169.255.0.0']],
  ['172.16.0.0/12', ['172.16.0.1', '172.31.255.255'], ['172.15.255.255', '172.32.0.0']],
  ['192.0.0.0/24', ['192.0.0.8', '192.0.0.170', '192.0.0.255'], ['192.0.1.0']],
  ['192.0.2.0/24', ['192.0.2.1'], ['192.0.3.0']],
  ['192.31.196.0/24', ['192.31.196.1'], ['192.31.197.0']],
  ['192.52.193.0/24', ['192.52.193.1'], ['192.52.194.0']],
  ['192.88.99.0/24', ['192.88.99.1'], ['192.88.100.0']],
  ['192.168.0.0/16', ['192.168.1.1'], ['192.169.0.0']],
  ['192.175.48.0/24', ['192.175.48.1'], ['192.175.49.0']],
  ['198.18.0.0/15', ['198.18.0.1', '198.19.255.255'], ['198.17.255.255', '198.20.0.0']],
  ['198.51.100.0/24', ['198.51.100.7'], ['198.51.101.0']],
  ['203.0.113.0/24', ['203.0.113.9'], ['203.0.114.0']],
  ['224.0.0.0/4', ['224.0.0.1', '239.255.255.255'], ['223.255.255.255']],
  ['240.0.0.0/4', ['240.0.0.1', '255.255.255.255'], []],
];

/** Likewise for IANA's IPv6 registry (and multicast, site-local). */
const ipv6Special: [range: string, inside: string[], outside: string[]][] = [
  ['::/96 (unspecified, loopback, IPv4-compatible)', ['::', '::1', '::127.0.0.1', '::7f00:1', '0:0:0:0:0:0:a00:1'], ['::1:0:0:1']],
  ['64:ff9b::/96', ['64:ff9b::127.0.0.1', '64:ff9b::8.8.8.8', '64:ff9b::a9fe:a9fe'], ['64:ff9b:0:0:0:1::1']],
  ['64:ff9b:1::/48', ['64:ff9b:1::1'], ['64:ff9b:2::1']],
  ['100::/64', ['100::1'], ['100:0:0:2::1']],
  ['100:0:0:1::/64', ['100:0:0:1::1'], []],
  ['2001::/23', ['2001::1', '2001:2::1', '2001:20::1', '2001:1ff::1'], ['2001:200::1', '2001:4860:4860::8888']],
  ['2001:db8::/32', ['2001:db8::1', '2001:0db8:85a3::8a2e:370:7334'], ['2001:db9::1']],
  ['2002::/16', ['2002:7f00:1::1', '2002:a9fe:a9fe::'], ['2003::1']],
  ['2620:4f:8000::/48', ['2620:4f:8000::1'], ['2620:4f:8001::1']],
  ['3fff::/20', ['3fff::1', '3fff:fff::1'], ['3fff:1000::1']],
  ['5f00::/16', ['5f00::1'], ['5f01::1']],
  ['fc00::/7', ['fc00::1', 'fd12:3456::1'], ['fe00::1']],
  ['fe80::/10', ['fe80::1', 'fe80::1%eth0', 'febf::1'], []],
  ['fec0::/10', ['fec0::1'], []],
  ['ff00::/8', ['ff02::1', 'ff0e::1'], []],
];

/** IPv4 addresses in their IPv6 dresses: each is judged as the IPv4 address it carries. */
const mappedForms = (v4: string) => {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
  return [`::ffff:${v4}`, `::ffff:${hex(a, b)}:${hex(c, d)}`, `0:0:0:0:0:ffff:${v4}`, `::FFFF:${v4}`, `0000::ffff:${v4}`];
};

describe('webhook target addresses', () => {
  for (const [range, inside, outside] of ipv4Special) {
    it(`IPv4 ${range}: refused in every form, its neighbours not`, () => {
      for (const address of inside) {
        for (const form of [address, ...mappedForms(address)]) expect(isRefusedAddress(form), form).toBe(true);
        for (const url of [`http://${address}/h`, `http://[::ffff:${address}]:8080/h`]) {
          expect(
            codeOf(() => checkWebhookUrl(url, false)),
            url,
          ).toBe('WEBHOOK_URL_INVALID');
        }
      }
      for (const address of outside) {
        for (const form of [address, ...mappedForms(address)]) expect(isRefusedAddress(form), form).toBe(false);
      }
    });
  }
  for (const [range, inside, outside] of ipv6Special) {
    it(`IPv6 ${range}: refused, its neighbours not`, () => {
      for (const address of inside) {
        expect(isRefusedAddress(address), address).toBe(true);
        if (!address.includes('%'))
          expect(
            codeOf(() => checkWebhookUrl(`https://[${address}]/h`, false)),
            address,
          ).toBe('WEBHOOK_URL_INVALID');
      }
      for (const address of outside) expect(isRefusedAddress(address), address).toBe(false);
    });
  }

  it('the URL parser’s rewrites of a literal host are read as the address they are', () => {
    for (const url of [
      'http://[::ffff:127.0.0.1]:19870/h',
      'http://[::ffff:7f00:1]/h',
      'http://[0:0:0:0:0:ffff:127.0.0.1]/h',
      'http://[::ffff:169.254.169.254]/latest',
      'http://[::ffff:10.0.0.1]/h',
      'http://[::127.0.0.1]/h',
      'http://[64:ff9b::127.0.0.1]/h',
      'http://198.18.0.1/h',
      'http://2130706433/h',
      'http://0x7f.1/h',
      'http://017700000001/h',
      'http://127.1/h',
      'http://LOCALHOST./h',
      'http://api.localhost/h',
    ]) {
      expect(
        codeOf(() => checkWebhookUrl(url, false)),
        url,
      ).toBe('WEBHOOK_URL_INVALID');
      expect(
        codeOf(() => checkWebhookUrl(url, true)),
        url,
      ).toBe('accepted');
    }
    for (const url of ['https://example.com/hook', 'http://93.184.216.34/h', 'http://[2606:2800:220:1:248:1893:25c7:1946]/h']) {
      expect(
        codeOf(() => checkWebhookUrl(url, false)),
        url,
      ).toBe('accepted');
    }
  });

  it('anything that is not an address fails closed', () => {
    for (const text of ['7f00:1', 'example.com', '', '1.2.3']) expect(isRefusedAddress(text), text).toBe(true);
  });

  it('at delivery a loopback listener is reached neither through a literal nor through a name resolving to it', async () => {
    let received = 0;
    const server = createServer((_req, res) => {
      received += 1;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ connect: { lookup: refusingLookup } });
    try {
      expect(refusedLiteral(new URL(`http://[::ffff:127.0.0.1]:${port}/h`))).toBe('::ffff:7f00:1');
      const viaName = await fetch(`http://localhost:${port}/h`, { method: 'POST', dispatcher: agent }).catch((error: Error) => error);
      expect((viaName as Error).cause).toBeInstanceOf(RefusedTargetError);
      // The same request without the refusing lookup reaches it: the listener is real.
      await (await fetch(`http://localhost:${port}/h`, { method: 'POST' })).body?.cancel();
      expect(received).toBe(1);
    } finally {
      await agent.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
