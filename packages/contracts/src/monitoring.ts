import { z } from 'zod';
import { uint } from './shapes';
import { accountIdSchema } from './billing';
import { listPage, listQuery } from './lists';
import { maxTrendSampleSize, minTrendSampleSize } from './trends';

/*
 * Shapes of the monitoring service (ADR 0027). Factories where a shape is both an output's named schema
 * and part of an input: `.meta({ id })` names the one instance it is given, so each input takes a fresh copy.
 */

/** A comment's text in a notification is cut to this many characters. */
export const commentExcerptLength = 200;

/** Bounds of `intervalMinutes`: a quarter of an hour to a week. */
export const minMonitorIntervalMinutes = 15;
export const maxMonitorIntervalMinutes = 10_080;
/** Notifications answered by `GET /v1/notifications`, newest first. */
export const maxNotificationsListed = 100;

const searchText = () => z.string().trim().min(1, 'q must not be blank').max(200);
const youtubeId = () => z.string().trim().min(1, 'id must not be blank').max(100);

export const monitorQuery = () =>
  z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('topic').describe('A trend report on the topic: videos newly in the Breakout band or accelerating.'),
      q: searchText(),
      sampleSize: z.number().int().min(minTrendSampleSize).max(maxTrendSampleSize).optional(),
    }),
    z.strictObject({
      kind: z.literal('channel').describe("The channel's new uploads and new playlists."),
      id: youtubeId().describe('Channel id (UC…) or @handle.'),
    }),
    z.strictObject({
      kind: z.literal('video').describe('Jumps in view velocity or comment count, and new comments.'),
      id: youtubeId().describe('Video id.'),
    }),
    z.strictObject({ kind: z.literal('search').describe('New videos among the newest results of a search.'), q: searchText() }),
  ]);
export const monitorQuerySchema = monitorQuery().meta({ id: 'MonitorQuery' });
export type MonitorQuery = z.infer<typeof monitorQuerySchema>;

export const monitorInterval = () =>
  z
    .number()
    .int('intervalMinutes must be a whole number of minutes')
    .min(minMonitorIntervalMinutes, `intervalMinutes must be at least ${minMonitorIntervalMinutes}`)
    .max(maxMonitorIntervalMinutes, `intervalMinutes must be at most ${maxMonitorIntervalMinutes} (a week)`);

export const monitorStatuses = ['active', 'disabled', 'paused_no_credits', 'backing_off'] as const;
export type MonitorStatus = (typeof monitorStatuses)[number];

export const monitorSchema = z
  .object({
    id: z.string(),
    query: monitorQuerySchema,
    intervalMinutes: z.number().int(),
    enabled: z.boolean(),
    nextCheckAt: z
      .number()
      .int()
      .describe(
        'Epoch milliseconds of the next scheduled check. While the monitor is disabled no check runs and this keeps the instant the next check was due when it was disabled; enabling sets it to now + interval.',
      ),
    status: z
      .enum(monitorStatuses)
      .describe(
        '`paused_no_credits`: the last check found no credits (retried every interval); `backing_off`: the last checks failed upstream and the interval doubles up to a cap.',
      ),
    statusReason: z.string().nullable(),
    consecutiveFailures: uint(),
    lastCheckedAt: z.iso.datetime().nullable().describe('When the last check finished; null before the first.'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Monitor' });
export type Monitor = z.infer<typeof monitorSchema>;

export const monitorListSchema = listPage(monitorSchema, 'MonitorList');

/** PATCH answers exactly these three (issue 9). */
export const monitorScheduleSchema = z
  .object({
    intervalMinutes: z.number().int(),
    enabled: z.boolean(),
    nextCheckAt: z.number().int().describe('Epoch milliseconds of the next scheduled check (a number, as the contract fixes it).'),
  })
  .meta({ id: 'MonitorSchedule' });
export type MonitorSchedule = z.infer<typeof monitorScheduleSchema>;

/** Something a check found changed: a video, a channel, a playlist or a comment, with its link. */
export const changedItemSchema = z
  .object({
    type: z.enum(['video', 'channel', 'playlist', 'comment']),
    id: z.string(),
    title: z.string().describe('Comments: "Comment by <author>".'),
    url: z.string().describe('Comments: the watch URL with `lc=<comment id>`, which opens the video at the comment.'),
    /** Video monitors: the figures that moved. */
    viewCount: z.number().int().optional(),
    previousViewCount: z.number().int().optional(),
    commentCount: z.number().int().optional(),
    previousCommentCount: z.number().int().optional(),
    trendBand: z.string().optional(),
    /** Comments: who wrote it and the start of what they wrote. */
    author: z.string().optional(),
    text: z.string().optional().describe(`Comments: the text, cut to ${commentExcerptLength} characters.`),
  })
  .meta({ id: 'ChangedItem' });
export type ChangedItem = z.infer<typeof changedItemSchema>;

export const checkOutcomes = ['baseline', 'unchanged', 'changed', 'failed', 'paused'] as const;

export const monitorCheckSchema = z
  .object({
    id: z.string(),
    monitorId: z.string(),
    checkedAt: z.iso.datetime().describe('When (the service clock) the check ran.'),
    outcome: z
      .enum(checkOutcomes)
      .describe(
        '`baseline`: the first check of a query saves what is there and notifies nothing; `paused`: no credits; `failed`: upstream error.',
      ),
    changes: z.array(changedItemSchema),
    creditsCharged: uint(),
    notificationId: z.string().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: 'MonitorCheck' });
export type MonitorCheck = z.infer<typeof monitorCheckSchema>;

export const monitorCheckListSchema = listPage(monitorCheckSchema, 'MonitorCheckList');

export const notificationKinds = [
  'new_videos',
  'new_uploads',
  'new_playlists',
  'video_activity',
  'new_comments',
  'trend_videos',
  'checks_paused',
  'digest',
  'webhook_disabled',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

export const notificationSchema = z
  .object({
    id: z.string(),
    monitorId: z.string().nullable(),
    kind: z
      .enum(notificationKinds)
      .describe(
        'A channel check that found uploads is `new_uploads` (its items may include new playlists too), one that found only playlists `new_playlists`; a video check with a count or velocity jump is `video_activity` (its items may include new comments too), one that found only comments `new_comments`.',
      ),
    title: z.string(),
    body: z.string(),
    data: z.object({ items: z.array(changedItemSchema) }),
    createdAt: z.iso.datetime(),
    read: z.boolean(),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof notificationSchema>;
export const notificationListSchema = z.object({ notifications: z.array(notificationSchema) }).meta({ id: 'NotificationList' });

export const notificationReadSchema = z.object({ read: z.literal(true) }).meta({ id: 'NotificationRead' });

/** An IANA time zone name the runtime knows (`Europe/Berlin`, `America/New_York`, `UTC`); offsets and abbreviations are refused. */
export function isIanaTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const digestFrequencies = ['off', 'daily', 'weekly'] as const;
export const digestChannels = ['in_app', 'webhook'] as const;

export const digestPreferencesBody = () =>
  z.object({
    frequency: z.enum(digestFrequencies).describe('`weekly` digests come on Mondays (local time).'),
    hourOfDay: z
      .number()
      .int()
      .min(0, 'hourOfDay must be 0–23')
      .max(23, 'hourOfDay must be 0–23')
      .describe('Local hour (0–23) the digest is produced at.'),
    timezone: z
      .string()
      .min(1)
      .max(64)
      .refine(isIanaTimeZone, 'timezone must be an IANA time zone name, e.g. Europe/Berlin')
      .describe('IANA time zone name.'),
    channels: z
      .array(z.enum(digestChannels))
      .min(1)
      .max(2)
      .refine((channels) => new Set(channels).size === channels.length, 'channels must not repeat')
      .describe(
        "Where digests go: `in_app` (an unread notification of kind `digest`) and/or `webhook` (delivered to the account's webhooks; without `in_app` the digest is saved already read).",
      ),
  });

export const digestPreferencesSchema = digestPreferencesBody()
  .extend({
    nextDigestAt: z.iso.datetime().nullable().describe('When the next digest is due; null while `frequency` is `off`.'),
  })
  .meta({ id: 'DigestPreferences' });
export type DigestPreferences = z.infer<typeof digestPreferencesSchema>;

/* Webhooks (Standard Webhooks: signed, retried deliveries of every notification). */

export const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    enabled: z.boolean().describe('False once deliveries kept failing (`disabledReason` says so); delete it and create another.'),
    disabledReason: z.string().nullable(),
    consecutiveFailures: uint(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof webhookSchema>;
export const createdWebhookSchema = webhookSchema
  .extend({
    secret: z.string().describe('The signing secret (`whsec_…`), shown once: verify deliveries with any Standard Webhooks library.'),
  })
  .meta({ id: 'CreatedWebhook' });
export const webhookListSchema = listPage(webhookSchema, 'WebhookList');

export const webhookDeliveryStatuses = ['pending', 'succeeded', 'failed'] as const;
export const webhookDeliverySchema = z
  .object({
    id: z.string().describe('Also the `webhook-id` header: the same on every retry, so receivers can deduplicate.'),
    webhookId: z.string(),
    notificationId: z.string(),
    eventType: z.string(),
    status: z.enum(webhookDeliveryStatuses),
    attempts: uint(),
    lastResponseStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.iso.datetime().nullable().describe('When the next attempt is due, while pending.'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryListSchema = listPage(webhookDeliverySchema, 'WebhookDeliveryList');

/* Each public operation's input (issue 38); monitoring's procedure extends it with the account, or names the path's `id`. */

/** The `{id}` of every monitor path. */
export const monitorIdParam = () => z.string().min(1).max(100).describe('The monitor id (`mon_…`).');
const byAccount = { accountId: accountIdSchema };
/** At least one field: an empty PATCH is refused by the service (422), not ignored. */
const monitorChanges = () => ({
  query: monitorQuery().optional(),
  intervalMinutes: monitorInterval().optional(),
  enabled: z.boolean().optional(),
});

export const createMonitorInput = z.strictObject({
  query: monitorQuery(),
  intervalMinutes: monitorInterval(),
  enabled: z.boolean().default(true),
});
export const listMonitorsInput = listQuery().strict();
export const getMonitorInput = z.strictObject({ id: monitorIdParam() });
export const updateMonitorInput = z.strictObject({ id: monitorIdParam(), ...monitorChanges() });
export const deleteMonitorInput = z.strictObject({ id: monitorIdParam() });
export const checkMonitorInput = z.strictObject({ id: monitorIdParam() });
export const listMonitorChecksInput = listQuery().extend({ id: monitorIdParam() }).strict();
export const listNotificationsInput = z.strictObject({});
export const markNotificationReadInput = z.strictObject({ id: z.string().min(1).max(100) });
export const getDigestPreferencesInput = z.strictObject({});
export const putDigestPreferencesInput = digestPreferencesBody().strict();
export const createWebhookInput = z.strictObject({
  url: z.string().trim().min(1, 'url is required').max(2_000).describe('http(s) URL that receives `notification.created` deliveries.'),
  description: z.string().trim().max(200).optional(),
});
export const listWebhooksInput = listQuery().strict();
export const deleteWebhookInput = z.strictObject({ id: z.string().min(1).max(100) });
export const listWebhookDeliveriesInput = listQuery()
  .extend({ id: z.string().min(1).max(100) })
  .strict();

/* Internal procedure I/O of the monitoring service: the gateway passes the authenticated account. */

export const createMonitorInputSchema = createMonitorInput.extend(byAccount);
/** get, delete and check. */
export const monitorRefInputSchema = z.strictObject({ ...byAccount, monitorId: z.string().min(1).max(100) });
export const updateMonitorInputSchema = monitorRefInputSchema.extend(monitorChanges());
export const listMonitorsInputSchema = listMonitorsInput.extend(byAccount);
export const listMonitorChecksInputSchema = listQuery()
  .extend({ ...byAccount, monitorId: monitorRefInputSchema.shape.monitorId })
  .strict();
export const putDigestPreferencesInputSchema = putDigestPreferencesInput.extend(byAccount);
export const createWebhookInputSchema = createWebhookInput.extend(byAccount);
export const webhookRefInputSchema = z.strictObject({ ...byAccount, webhookId: z.string().min(1).max(100) });
export const listWebhooksInputSchema = listWebhooksInput.extend(byAccount);
export const listWebhookDeliveriesInputSchema = listQuery()
  .extend({ ...byAccount, webhookId: webhookRefInputSchema.shape.webhookId })
  .strict();
/** listNotifications and getDigestPreferences: the account's own, nothing else to name. */
export const listNotificationsInputSchema = listNotificationsInput.extend(byAccount);
export const notificationRefInputSchema = z.strictObject({ ...byAccount, notificationId: z.string().min(1).max(100) });
/** Test-only: `now` fixes the monitoring clock (ISO or epoch ms), null lets it follow real time again. */
export const setMonitoringClockInputSchema = z.strictObject({ now: z.union([z.iso.datetime(), z.number().int()]).nullable() });
