/**
 * The client's defaults, apart from the client itself: configuration (the provider's env schema, which
 * the gateway reads too) imports these without loading youtubei.js.
 */
export const defaultClientOptions = {
  origin: 'https://www.youtube.com',
  timeoutMs: 10_000,
  retries: 2,
  retryBaseDelayMs: 250,
  breaker: { failureThreshold: 5, halfOpenAfterMs: 30_000 },
  maxConcurrency: 48,
} as const;
