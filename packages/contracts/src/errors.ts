/**
 * Every error code the API returns, with its HTTP status. Codes are UPPER_SNAKE_CASE and stable:
 * clients branch on `error.code`, never on the message.
 */
export const errorCodes = {
  MALFORMED_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  JSON_TOO_DEEP: { status: 400, message: 'The JSON body nests arrays and objects deeper than 64 levels.' },
  MALFORMED_BODY: { status: 400, message: 'The request body could not be read: truncated, or not in its declared Content-Encoding.' },
  MALFORMED_PATH: { status: 400, message: 'The request path has a malformed percent-escape.' },
  MALFORMED_REQUEST: { status: 400, message: 'The request is not valid HTTP/1.1.' },
  DUPLICATE_KEY: {
    status: 400,
    message: 'An object in the JSON body names the same key twice; `details.key` and `details.path` say which.',
  },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time; send its headers and body without pausing.' },
  UNAUTHENTICATED: { status: 401, message: 'Authentication required: send an API key as `Authorization: Bearer aty_…` or `X-API-Key`.' },
  INVALID_API_KEY: { status: 401, message: 'The API key is not valid or has been revoked.' },
  API_KEY_EXPIRED: { status: 401, message: 'The API key has expired: create a new one.' },
  ACCOUNT_DELETED: { status: 401, message: 'The account has been deleted; its credentials no longer authenticate.' },
  DEMO_MODE_DISABLED: { status: 401, message: 'X-Demo-User is accepted only when demo mode is on.' },
  INSUFFICIENT_CREDITS: { status: 402, message: 'The account does not have enough credits for this operation.' },
  FORBIDDEN: { status: 403, message: 'The caller is not allowed to perform this operation.' },
  INSUFFICIENT_SCOPE: { status: 403, message: 'The credential lacks a permission this operation requires.' },
  VIDEO_AGE_RESTRICTED: { status: 403, message: 'The video is age-restricted: YouTube shows it only to signed-in adults.' },
  VIDEO_PRIVATE: { status: 403, message: 'The video is private.' },
  VIDEO_MEMBERS_ONLY: { status: 403, message: "The video is for the channel's paying members only." },
  VIDEO_PAID: { status: 403, message: 'The video needs a purchase or a paid subscription (YouTube Premium, Music Premium, a rental).' },
  VIDEO_RESTRICTED: { status: 403, message: 'YouTube does not play the video to signed-out viewers, without naming the restriction.' },
  NOT_FOUND: { status: 404, message: 'The requested resource was not found.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No operation exists at this path.' },
  PROJECT_NOT_FOUND: { status: 404, message: 'Project not found.' },
  ACCOUNT_NOT_FOUND: { status: 404, message: 'Account not found.' },
  API_KEY_NOT_FOUND: { status: 404, message: 'API key not found.' },
  VIDEO_UNAVAILABLE: { status: 404, message: 'The video does not exist or is no longer available.' },
  TRANSCRIPT_UNAVAILABLE: { status: 404, message: 'The video has no transcript.' },
  PLAYLIST_NOT_FOUND: { status: 404, message: 'Playlist not found.' },
  CHANNEL_NOT_FOUND: { status: 404, message: 'Channel not found.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This path does not accept that HTTP method.' },
  VIDEO_LIVE_NOT_ENDED: {
    status: 409,
    message: 'The video is a live stream or premiere that has not ended; its transcript exists once it has.',
  },
  CONFLICT: { status: 409, message: 'The request conflicts with the current state of the resource.' },
  API_KEY_LIMIT_REACHED: {
    status: 409,
    message: 'The account holds the most active API keys allowed; delete one it no longer uses first.',
  },
  JOB_NOT_FOUND: { status: 404, message: 'Job not found.' },
  OPERATION_NOT_FOUND: { status: 404, message: 'Operation not found.' },
  EXPORT_NOT_FOUND: { status: 404, message: 'Export not found.' },
  EVIDENCE_NOT_FOUND: { status: 404, message: 'Evidence not found in this project.' },
  COMPARISON_NOT_FOUND: { status: 404, message: 'Comparison not found.' },
  MONITOR_NOT_FOUND: { status: 404, message: 'Monitor not found.' },
  NOTIFICATION_NOT_FOUND: { status: 404, message: 'Notification not found.' },
  WEBHOOK_NOT_FOUND: { status: 404, message: 'Webhook not found.' },
  MONITOR_DISABLED: { status: 409, message: 'The monitor is disabled; enable it (PATCH enabled: true) before forcing a check.' },
  MONITOR_QUERY_REQUIRED: { status: 422, message: 'The monitor needs a `query`: {kind: topic|channel|video|search, …}.' },
  MONITOR_INTERVAL_INVALID: { status: 422, message: '`intervalMinutes` must be a whole number from 15 to 10080.' },
  WEBHOOK_URL_INVALID: {
    status: 422,
    message: 'The webhook URL must be http(s) and must not point at a loopback, private or link-local address.',
  },
  TIMEZONE_INVALID: { status: 422, message: '`timezone` must be an IANA time zone name, e.g. `Europe/Berlin`.' },
  EXPORT_NOT_READY: { status: 409, message: 'The export is not ready yet; poll GET /v1/exports/{id} until its status is ready.' },
  JOB_NOT_CANCELLABLE: { status: 409, message: 'The job has already finished; only a queued or running job can be cancelled.' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, message: 'A request with this Idempotency-Key is still being processed; retry shortly.' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message: 'This Idempotency-Key was used with a different request within 24 hours; use a new key.',
  },
  EXPORT_EXPIRED: { status: 410, message: 'The export file has expired and was deleted; create a new export.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Send the request body as application/json.' },
  VALIDATION_FAILED: { status: 422, message: 'The request failed validation.' },
  INVALID_CURSOR: { status: 422, message: 'The cursor is not one this list returned: pass a `nextCursor` of this list unchanged.' },
  UNKNOWN_PARAMETER: {
    status: 422,
    message: 'The request names a parameter or field this operation does not declare; `details.parameters` lists them.',
  },
  DUPLICATE_IDS: {
    status: 422,
    message: 'Two of the ids name the same video or channel (a channel by handle and by id, say); `details.duplicates` says which.',
  },
  QUERY_REQUIRED: { status: 422, message: 'The query parameter `q` is required and must not be blank.' },
  PROVIDER_NOT_SUPPORTED: { status: 422, message: 'Unsupported provider: the only supported provider is `youtube`.' },
  VIDEO_REGION_BLOCKED: { status: 451, message: 'The video is not available in the region the service reaches YouTube from.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request line and headers exceed 16 KB.' },
  RATE_LIMITED: { status: 429, message: 'Rate limit exceeded. Retry after the time given in Retry-After.' },
  INTERNAL_ERROR: { status: 500, message: 'An unexpected error occurred.' },
  INSUFFICIENT_STORAGE: {
    status: 507,
    message: 'The service is out of storage space and cannot save this; reads still work. Retry later.',
  },
  SERVICE_UNAVAILABLE: { status: 503, message: 'A service this operation depends on is unavailable.' },
  UPSTREAM_UNAVAILABLE: { status: 503, message: 'The video platform is unavailable.' },
  AI_UNAVAILABLE: { status: 503, message: 'The AI model service is unavailable.' },
  BILLING_UNAVAILABLE: { status: 503, message: 'Billing did not answer: the request was not charged. Try again shortly.' },
  // Agents (ADR 0025).
  AGENTS_NOT_ENABLED: { status: 403, message: 'Agent runs are not enabled for this account.' },
  AGENTS_ACCOUNT_NOT_VERIFIED: {
    status: 409,
    message: 'Only an account whose email address is verified may be allowed to run agents.',
  },
  AGENT_SESSION_NOT_FOUND: { status: 404, message: 'Agent session not found.' },
  AGENT_RUN_NOT_FOUND: { status: 404, message: 'Agent run not found.' },
  AGENT_RUN_IN_PROGRESS: { status: 409, message: "The session's previous run is still pending or running; wait for it or cancel it." },
  AGENT_RUN_NOT_CANCELLABLE: { status: 409, message: 'The run has already finished; only a pending or running run can be cancelled.' },
  DETAILS_REQUIRE_COMPACT: { status: 422, message: '`details` is only available with responseFormat=compact.' },
  DETAILS_INVALID: {
    status: 422,
    message: '`details` is a comma-separated list of artifacts, evidence, diagnostics (at most 100 characters).',
  },
  // Identity: sign-in, sessions, CSRF, emailed links (ADR 0034).
  INVALID_CREDENTIALS: { status: 401, message: 'The email address or password is not correct.' },
  SESSION_INVALID: { status: 401, message: 'The session has ended (signed out, revoked or expired); sign in again.' },
  EMAIL_NOT_VERIFIED: {
    status: 403,
    message: 'Verify your email address first: follow the link we sent. A new link has been sent.',
  },
  CSRF_TOKEN_MISSING: {
    status: 403,
    message:
      'A request made with the session cookie that changes something must carry the CSRF token (X-CSRF-Token header or _csrf field).',
  },
  CSRF_TOKEN_INVALID: { status: 403, message: 'The CSRF token does not belong to this session; reload the page for the current one.' },
  CSRF_ORIGIN_MISMATCH: {
    status: 403,
    message: "The request's Origin is not this service's; cross-site requests cannot use the session cookie.",
  },
  CSRF_ORIGIN_REFUSED: {
    status: 403,
    message: "This form is accepted only from this service's own pages; a cross-site post (Origin or Sec-Fetch-Site) is refused.",
  },
  SESSION_NOT_FOUND: { status: 404, message: 'Session not found.' },
  EMAIL_INVALID: { status: 422, message: 'Enter a valid email address.' },
  PASSWORD_TOO_WEAK: { status: 422, message: 'The password must be 10 to 200 characters long.' },
  LINK_INVALID: { status: 400, message: 'The link is not valid: it was mistyped, already used, or replaced by a newer one.' },
  LINK_EXPIRED: { status: 410, message: 'The link has expired; ask for a new one.' },
  SIGNIN_RATE_LIMITED: {
    status: 429,
    message: 'Too many sign-in attempts for this email address or from this network; retry after the time given in Retry-After.',
  },
  // RFC 8628 device authorization (ADR 0036): the token endpoint's answers carry the RFC's value in details.error.
  AUTHORIZATION_PENDING: {
    status: 400,
    message: 'The user has not approved or denied this device code yet; poll again after the interval.',
  },
  SLOW_DOWN: { status: 400, message: 'Polling too fast: wait details.interval seconds between polls from now on.' },
  ACCESS_DENIED: { status: 400, message: 'The user denied this device authorization; start again with a new code.' },
  EXPIRED_TOKEN: { status: 400, message: 'The device code has expired; start again with a new code.' },
  INVALID_DEVICE_CODE: {
    status: 400,
    message: 'The device code is not known or was already exchanged for a token; start again with a new code.',
  },
  UNSUPPORTED_GRANT_TYPE: {
    status: 400,
    message: 'grant_type must be urn:ietf:params:oauth:grant-type:device_code (or left out).',
  },
  DEVICE_CODE_RATE_LIMITED: {
    status: 429,
    message: 'Too many device codes requested from this network; retry after the time given in Retry-After.',
  },
  USER_CODE_INVALID: { status: 404, message: 'No sign-in request has this code. Check the code your terminal shows and type it again.' },
  USER_CODE_EXPIRED: { status: 410, message: 'This code has expired. Start the sign-in again in your terminal for a new code.' },
  USER_CODE_USED: { status: 409, message: 'This code was already approved or denied. Start the sign-in again in your terminal if needed.' },
  USER_CODE_RATE_LIMITED: {
    status: 429,
    message: 'Too many wrong codes; retry after the time given in Retry-After.',
  },
  SCOPES_NOT_CHOSEN: { status: 422, message: 'Choose at least one permission to approve, or deny the request.' },
  SCOPE_NOT_REQUESTED: { status: 422, message: 'Only permissions the client asked for can be approved.' },
  // The OAuth 2.1 authorization server (ADR 0095): answered as RFC 6749 §5.2 bodies, the RFC value in details.error.
  OAUTH_INVALID_REQUEST: { status: 400, message: 'The OAuth request is missing a parameter or has one that is not valid.' },
  OAUTH_INVALID_CLIENT: { status: 401, message: 'The client_id is missing or not registered.' },
  OAUTH_INVALID_GRANT: {
    status: 400,
    message: 'The authorization code or refresh token is not valid, expired, already used, or was issued to another client.',
  },
  OAUTH_UNAUTHORIZED_CLIENT: { status: 400, message: 'The client is not registered for this grant type.' },
  OAUTH_INVALID_SCOPE: { status: 400, message: 'The requested scope is unknown or more than was granted.' },
  OAUTH_INVALID_REDIRECT_URI: {
    status: 400,
    message: 'Redirect URIs must be https, or http on a loopback address (RFC 8252), without a fragment.',
  },
  OAUTH_INVALID_CLIENT_METADATA: { status: 400, message: 'The client metadata is not valid.' },
  OAUTH_RATE_LIMITED: { status: 429, message: 'Too many OAuth requests from this network; retry after the time given in Retry-After.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCodes;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorCodes, value);
}
