import { z } from 'zod';
import { accountIdSchema, scopeSchema } from './billing';
import { maxSessionTtlMs } from './sessions';

/*
 * RFC 8628 device authorization (ADR 0036): billing keeps the codes, the gateway speaks the protocol.
 * The public bodies keep the RFC's snake_case names, so stock device-flow clients work unchanged.
 */

export const deviceGrantType = 'urn:ietf:params:oauth:grant-type:device_code';
/** No vowels and no look-alikes (0/O, 1/I/L are absent or unambiguous), as RFC 8628 §6.1 suggests. */
export const userCodeAlphabet = 'BCDFGHJKLMNPQRSTVWXZ';
export const userCodeLength = 8;
/** How much `slow_down` adds to a device code's polling interval (RFC 8628 §3.5). */
export const slowDownStepSeconds = 5;

export const deviceCodeStatusSchema = z.enum(['pending', 'approved', 'denied', 'consumed']);
export type DeviceCodeStatus = z.infer<typeof deviceCodeStatusSchema>;

const clientNameSchema = z.string().trim().min(1).max(100);
/** Anything a person may type as a user code; normalised (case, dashes, spaces) before the lookup. */
const typedUserCodeSchema = z.string().max(32);
const deviceCodeSchema = z.string().min(1).max(200);

/* Internal procedure I/O of the billing service. */

export const startDeviceAuthorizationInputSchema = z.strictObject({
  scopes: z.array(scopeSchema).min(1),
  clientName: clientNameSchema.nullable(),
  expiresInSeconds: z.number().int().min(1).max(86_400),
  intervalSeconds: z.number().int().min(1).max(300),
  ip: z.string().max(100).nullable().default(null),
  /** Started at the OAuth endpoint (ADR 0095): only this client's token request may exchange the code. */
  clientId: z.string().max(100).nullable().default(null),
});
export const startedDeviceAuthorizationSchema = z.object({
  /** Both codes are in this response only; billing stores their hashes. */
  deviceCode: z.string(),
  userCode: z.string().describe('Formatted for people: XXXX-XXXX.'),
  expiresInSeconds: z.number().int(),
  intervalSeconds: z.number().int(),
});

export const pollDeviceAuthorizationInputSchema = z.strictObject({
  deviceCode: deviceCodeSchema,
  /** How long the CLI session opened on approval lasts. */
  sessionTtlMs: z.number().int().min(1000).max(maxSessionTtlMs),
  /** Polled at the OAuth token endpoint (ADR 0095): the code opens an OAuth grant for this client instead of a CLI session. */
  oauth: z
    .object({
      clientId: z.string().max(100),
      accessTokenTtlSeconds: z.number().int().min(1),
      grantTtlSeconds: z.number().int().min(1),
    })
    .optional(),
});
export const polledDeviceAuthorizationSchema = z.object({
  token: z.string(),
  sessionId: z.string(),
  expiresAt: z.iso.datetime(),
  scopes: z.array(scopeSchema),
  /** OAuth grants only: the grant's first refresh token. */
  refreshToken: z.string().optional(),
});

export const lookupUserCodeInputSchema = z.strictObject({ userCode: typedUserCodeSchema });
export const pendingDeviceAuthorizationSchema = z.object({
  userCode: z.string(),
  clientName: z.string().nullable(),
  scopes: z.array(scopeSchema),
  expiresAt: z.iso.datetime(),
});
export type PendingDeviceAuthorization = z.infer<typeof pendingDeviceAuthorizationSchema>;

export const approveDeviceAuthorizationInputSchema = z.strictObject({
  accountId: accountIdSchema,
  userCode: typedUserCodeSchema,
  /** What the user approved: a non-empty subset of the requested scopes (none is SCOPES_NOT_CHOSEN). */
  scopes: z.array(scopeSchema).max(20),
});
export const denyDeviceAuthorizationInputSchema = z.strictObject({ accountId: accountIdSchema, userCode: typedUserCodeSchema });
export const decidedDeviceAuthorizationSchema = z.object({
  status: z.enum(['approved', 'denied']),
  scopes: z.array(scopeSchema),
  clientName: z.string().nullable(),
});

/* The public operations (RFC 8628 §3.1–3.5 names). */

export const requestDeviceCodeInput = z.strictObject({
  scopes: z.array(scopeSchema).min(1).max(20).optional().describe('The permissions the client asks for; default: data:read.'),
  clientName: clientNameSchema.optional().describe('Shown on the approval page and as the label of the CLI session.'),
});
export const deviceCodeResponseSchema = z
  .object({
    device_code: z.string().describe('Secret: the client polls the token endpoint with it.'),
    user_code: z.string().describe('What the user types at verification_uri, XXXX-XXXX.'),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    expires_in: z.number().int().describe('Seconds until both codes expire.'),
    interval: z.number().int().describe('Seconds the client must wait between polls.'),
  })
  .meta({ id: 'DeviceAuthorization' });

export const exchangeDeviceCodeInput = z.strictObject({
  device_code: deviceCodeSchema,
  // Any string, so a wrong one is the RFC's unsupported_grant_type rather than a validation failure.
  grant_type: z.string().max(200).optional().describe(`Only \`${deviceGrantType}\`; may be left out.`),
});
export const deviceTokenResponseSchema = z
  .object({
    access_token: z.string().describe('A CLI session token (`atc_…`): send it as `Authorization: Bearer`.'),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    scope: z.string().describe('The approved scopes, space-separated (RFC 6749 §3.3).'),
  })
  .meta({ id: 'DeviceAccessToken' });
