import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, type BrowserHandle } from '@vrs/testing/browser';
import { apiClient } from '@vrs/testing/api-client';
import { billingClient, pollUntilDecided, requestDeviceCode, signedInAccount, type DeviceCode } from './device-flow-support';

const gatewayUrl = inject('gatewayUrl');
const billing = billingClient(inject('stackEnv'));

let browser: BrowserHandle;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('the device flow in a real browser', () => {
  it('a CLI polls while chromium approves on /device; the CLI then calls the API with what was approved', async () => {
    // The CLI side: a code, then polling at the interval it was given (5 s on this stack).
    const created = await requestDeviceCode(gatewayUrl, { scopes: ['data:read', 'data:write'], clientName: 'Browser-test CLI' });
    expect(created.status, created.text).toBe(200);
    const code = created.body as DeviceCode;
    const polling = pollUntilDecided(gatewayUrl, code, { deadlineMs: 60_000 });

    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      // Not signed in: the page sends the browser to sign in, and to come back to this very code.
      await page.goto(code.verification_uri_complete);
      expect(new URL(page.url()).pathname).toBe('/signin');
      expect(new URL(page.url()).searchParams.get('next')).toBe(`/device?user_code=${code.user_code}`);

      // Signed in (the cookie a sign-in sets): the page names the client, the code and the scopes.
      const owner = await signedInAccount(billing);
      await context.addCookies([{ name: 'vrs_session', value: owner.cookieToken, url: gatewayUrl }]);
      await page.goto(code.verification_uri_complete);
      await expect.poll(() => page.getByTestId('user-code').textContent()).toBe(code.user_code);
      expect(await page.getByText('Browser-test CLI').count()).toBeGreaterThan(0);
      const write = page.getByLabel(/data:write/);
      expect(await write.isChecked()).toBe(true);
      // The person gives less than was asked, and approves.
      await write.uncheck();
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForSelector('[data-outcome="approved"]');
      expect(await page.title()).toContain('Device approved');

      const { token, refused, seen } = await polling;
      expect(refused, JSON.stringify(refused?.body)).toBeUndefined();
      expect(seen.every((status) => status === 'AUTHORIZATION_PENDING')).toBe(true);
      expect(token).toMatchObject({ token_type: 'Bearer', scope: 'data:read' });

      const cli = apiClient(gatewayUrl, { authorization: `Bearer ${token.access_token}` });
      expect((await cli('GET', '/v1/projects')).status).toBe(200);
      const refusedWrite = await cli('POST', '/v1/projects', { json: { name: 'from the CLI' } });
      expect(refusedWrite.status).toBe(403);
      expect(refusedWrite.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { missing: ['data:write'] } });
    } finally {
      await context.close();
    }
  });
});
