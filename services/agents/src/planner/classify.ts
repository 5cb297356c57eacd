import type { AgentRoute, AgentRouteName } from '@vrs/contracts';
import type { RunDoc } from '../repo/runs-repo';
import { termsOf } from './terms';

export interface Classification {
  route: AgentRoute;
  /** Video ids named in the message (video question, comparison). */
  videoIds: string[];
  /** A channel id or @handle named in the message. */
  channel?: string;
  /** The topic words the answer is scored against. */
  terms: string[];
}

const videoUrl = /(?:youtube\.com\/(?:watch\?(?:[^\s#]*&)?v=|shorts\/|embed\/|live\/)|youtu\.be\/)([A-Za-z0-9_-]{11})/g;
const bareVideoId = /(?:^|[\s,(])(?:video\s+)?([A-Za-z0-9_-]{11})(?=$|[\s,.?!)])/g;
const channelRef =
  /(?:youtube\.com\/(?:channel\/(UC[A-Za-z0-9_-]{22})|(@[A-Za-z0-9._-]{3,30}))|(?:^|\s)(@[A-Za-z0-9._-]{3,30})|\b(UC[A-Za-z0-9_-]{22})\b)/;
/** Asks for something other than research: an order to act on YouTube or on an account (imperative, at the start), or credentials. */
const outOfScope =
  /^(?:please\s+|(?:can|could|would|will)\s+you\s+(?:please\s+)?)?(?:upload|delete|remove|post|publish|subscribe|unsubscribe|like|dislike|download|buy|purchase|write|comment on|reply to)\b|\b(?:hack|password|passwords|log ?in to)\b/i;
/** Messages that continue the conversation without naming a topic of their own. */
const followUp = /^(?:and |but |so )?(?:what about|tell me more|more on|go on|continue|why|how so|and then|same for|what else)\b/i;

/** An 11-character token is read as a video id only if it looks like one (a digit, `-`, `_`, or a capital inside), not an ordinary word. */
function looksLikeVideoId(token: string): boolean {
  return /[\d_-]/.test(token) || /[A-Z]/.test(token.slice(1));
}

function videoIdsOf(message: string): string[] {
  const ids = [...message.matchAll(videoUrl)].flatMap((match) => match[1] ?? []);
  const withoutUrls = message.replace(/\S*(?:youtube\.com|youtu\.be)\S*/g, ' ');
  for (const [, id] of withoutUrls.matchAll(bareVideoId)) if (id && looksLikeVideoId(id)) ids.push(id);
  return [...new Set(ids)];
}

/**
 * The deterministic classifier (ADR 0026): named videos make a video question (one) or a comparison
 * (several); a named channel a channel question; a request to act rather than research is out of
 * scope; fewer than two topic words (after the session's context for a follow-up) asks for
 * clarification; anything else is topic research. The search query is the topic words.
 */
export function classify(input: Pick<RunDoc, 'message' | 'context' | 'options'>): Classification {
  const message = input.message.trim();
  const videoIds = videoIdsOf(message);
  const channelMatch = channelRef.exec(message);
  const channel = channelMatch ? (channelMatch[1] ?? channelMatch[2] ?? channelMatch[3] ?? channelMatch[4]) : undefined;
  const ownText = message
    .replace(/\S*(?:youtube\.com|youtu\.be)\S*/g, ' ')
    .replace(/@[A-Za-z0-9._-]+/g, ' ')
    .replace(/\bUC[A-Za-z0-9_-]{22}\b/g, ' ');
  let terms = termsOf(ownText).filter((term) => !videoIds.includes(term));
  const previous = input.context.at(-1);
  if (previous && (terms.length < 2 || followUp.test(message)) && videoIds.length === 0 && !channel) {
    terms = [...new Set([...termsOf(previous), ...terms])];
  }
  let name: AgentRouteName;
  if (outOfScope.test(message)) name = 'out_of_scope';
  else if (videoIds.length >= 2) name = 'video_comparison';
  else if (videoIds.length === 1) name = 'video_question';
  else if (channel) name = 'channel_question';
  else if (terms.length < 2) name = 'clarification';
  else name = 'topic_research';
  const searchQuery = name === 'topic_research' ? terms.join(' ').slice(0, 200) : '';
  return {
    route: {
      route: name,
      researchBreadth: input.options.researchBreadth ?? 'standard',
      searchQuery,
      useStoryboard: input.options.useStoryboard ?? false,
      answerDetail: input.options.answerDetail ?? 'standard',
    },
    videoIds,
    ...(channel ? { channel } : {}),
    terms,
  };
}
