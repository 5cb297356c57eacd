import { publishNotification } from '../events/publish-notification';
import type { CheckDeps } from '../monitoring-deps';
import type { DigestPreferencesDoc } from '../repo/digest-preferences-repo';
import { nextDigestAt, periodMs } from './next-digest-at';

/** Notifications and changed items a digest lists at most. */
const maxSummarized = 100;
const maxItems = 50;

/**
 * One due digest (the caller holds its lease): a notification of kind `digest` summarizing the
 * period's unread notifications, then the next one scheduled at the chosen local hour. A period
 * with nothing unread sends nothing. Returns the notification id, or null.
 */
export async function runDigest(deps: CheckDeps, preferences: DigestPreferencesDoc, leaseToken: string): Promise<string | null> {
  const now = deps.clock.now().getTime();
  const since = preferences.lastDigestAt ?? now - periodMs(preferences.frequency);
  const unread = await deps.notifications.unreadSince(preferences._id, new Date(since).toISOString(), maxSummarized);
  const written = await deps.digestPreferences.finish(preferences._id, leaseToken, {
    nextDigestAt: nextDigestAt(preferences, now),
    lastDigestAt: now,
  });
  if (!written || unread.length === 0) return null;
  // Each item once (its first mention), at most maxItems of them.
  const seen = new Set<string>();
  const items = unread
    .flatMap((notification) => notification.data.items)
    .filter((item) => !seen.has(item.id) && seen.add(item.id))
    .slice(0, maxItems);
  const period = preferences.frequency === 'weekly' ? 'Weekly' : 'Daily';
  return publishNotification(
    deps,
    {
      accountId: preferences._id,
      monitorId: null,
      kind: 'digest',
      title: `${period} digest: ${unread.length} unread notification${unread.length === 1 ? '' : 's'}`,
      body: unread.map((notification) => `- ${notification.title}`).join('\n'),
      items,
      createdAt: new Date(now).toISOString(),
    },
    { read: !preferences.channels.includes('in_app'), deliver: preferences.channels.includes('webhook') },
  );
}
