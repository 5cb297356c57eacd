import { createHash } from 'node:crypto';
import { newUuid } from '@vrs/kit';

/** A UUID (version 8, RFC 9562) derived from `text`: the same text always names the same id. */
export function uuidOf(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The ids of an admission. With an Idempotency-Key they are derived from (account, key), so a retry
 * names the same run and the store's unique `_id` makes "create once" atomic with the run itself;
 * without one they are fresh, time-ordered UUIDs. `newSessionId` is used only when the run opens a new session.
 */
export function runIdsOf(accountId: string, idempotencyKey: string | undefined) {
  if (idempotencyKey === undefined)
    return { runId: newUuid(), newSessionId: newUuid(), userMessageId: newUuid(), agentMessageId: newUuid() };
  const base = `${accountId}\n${idempotencyKey}`;
  return {
    runId: uuidOf(`${base}\nrun`),
    newSessionId: uuidOf(`${base}\nsession`),
    userMessageId: uuidOf(`${base}\nuser-message`),
    agentMessageId: uuidOf(`${base}\nagent-message`),
  };
}

export const fingerprintOf = (request: unknown) => createHash('sha256').update(JSON.stringify(request)).digest('hex');
