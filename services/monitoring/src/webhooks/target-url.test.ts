import { describe, expect, it } from 'vitest';
import type { AppError } from '@vrs/kit';
import { checkWebhookUrl, isPrivateAddress } from './target-url';

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as AppError).code;
  }
  return 'accepted';
};

describe('webhook target URLs', () => {
  it('http(s) only, no credentials', () => {
    expect(codeOf(() => checkWebhookUrl('ftp://example.com/hook', true))).toBe('WEBHOOK_URL_INVALID');
    expect(codeOf(() => checkWebhookUrl('not a url', true))).toBe('WEBHOOK_URL_INVALID');
    expect(codeOf(() => checkWebhookUrl('https://user:pw@example.com/hook', true))).toBe('WEBHOOK_URL_INVALID');
    expect(codeOf(() => checkWebhookUrl('https://example.com/hook', false))).toBe('accepted');
  });

  it('loopback, private and link-local targets only when allowed', () => {
    for (const url of [
      'http://127.0.0.1:9000/h',
      'http://localhost/h',
      'http://10.1.2.3/h',
      'http://192.168.1.1/h',
      'http://169.254.169.254/latest',
      'http://[::1]/h',
      'http://[fd00::1]/h',
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
    expect(isPrivateAddress('::ffff:10.0.0.1')).toBe(true);
    expect(isPrivateAddress('93.184.216.34')).toBe(false);
  });
});
