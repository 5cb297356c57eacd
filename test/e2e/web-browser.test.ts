import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, type BrowserHandle } from '@vrs/testing/browser';
import { linkIn, waitForMail } from '@vrs/testing/smtp-inbox';
import { uniqueEmail } from '@vrs/testing/web-session';

const gatewayUrl = inject('gatewayUrl');
const inboxUrl = inject('mailInboxUrl');

let browser: BrowserHandle;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('the web app in a real browser (chromium)', () => {
  it('sign up → verify by the emailed link → sign in → create a key → the key calls the API', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const email = uniqueEmail('browser');
    const password = 'browser password 123';

    await page.goto(`${gatewayUrl}/signup`);
    await page.getByLabel('Name (optional)').fill('Browser User');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/signin\?notice=signed-up$/);
    expect(await page.getByRole('status').textContent()).toMatch(/Check your inbox/);

    const mail = await waitForMail(inboxUrl, email, { subject: /verify/i });
    await page.goto(linkIn(mail, `${gatewayUrl}/verify-email?token=`));
    await page.waitForURL(/\/signin\?notice=verified$/);

    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${gatewayUrl}/`);
    expect(await page.getByTestId('email').textContent()).toBe(email);
    expect(Number(await page.getByTestId('balance').textContent())).toBeGreaterThan(0);

    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'vrs_session', httpOnly: true, sameSite: 'Lax', path: '/' });

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(`${gatewayUrl}/keys`);
    await page.getByLabel('Name').fill('from the browser');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent())!;
    expect(key).toMatch(/^aty_[0-9A-Za-z]{40}$/);
    expect(await page.getByRole('cell', { name: 'from the browser', exact: true }).count()).toBe(1);

    const billing = await fetch(`${gatewayUrl}/v1/billing`, { headers: { authorization: `Bearer ${key}` } });
    expect(billing.status).toBe(200);
    const who = await fetch(`${gatewayUrl}/v1/auth/session`, { headers: { authorization: `Bearer ${key}` } });
    expect(await who.json()).toMatchObject({ account: { email }, credential: { kind: 'api_key' } });

    // Revoking it on the page ends it for the API.
    await page.getByRole('button', { name: 'Revoke from the browser' }).click();
    await page.waitForURL(/\/keys\?notice=key-revoked$/);
    expect((await fetch(`${gatewayUrl}/v1/billing`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);

    // Sign out from the navigation: the dashboard then sends the browser to sign in.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin\?notice=signed-out$/);
    await page.goto(`${gatewayUrl}/`);
    await page.waitForURL(/\/signin\?next=%2F$/);
    await context.close();
  });
});
