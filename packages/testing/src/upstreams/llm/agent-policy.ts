/**
 * How the fake answers a tool loop (`tools` offered, `tool_choice` auto or absent): a fixed research
 * policy read from the conversation, so an agent's real multi-step loop runs against it:
 *
 * 1. nothing gathered yet: `get_transcript` of each video the user message links (watch / youtu.be
 *    URLs), else `search_videos` with the message's topic words;
 * 2. a search answered and no transcript asked for since: `get_transcript` of its first N videos, all
 *    in one step (N = the number in "up to N transcripts" in the system prompt, else 3);
 * 3. `get_storyboard` offered, a transcript asked for and no storyboard yet: `get_storyboard` of the
 *    first video whose transcript was asked for;
 * 4. otherwise the answer: text quoting the evidence entries (`{"evidenceId": "ev_…", "text": …}` in
 *    tool results) that mention most topic words, up to K (K from "up to K passages", else 3), each
 *    followed by its `[ev_…]` marker; without evidence, a sentence saying so.
 *
 * A tool result holding `{"error": …}` counts as not answered: the policy goes on as if the call had
 * not been made (a step that fails is retried through the next rule, not repeated).
 */
import type { ChatRequest } from './chat-completion';

export interface AgentToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type AgentDecision = { kind: 'tools'; calls: AgentToolCall[] } | { kind: 'answer'; text: string };

export interface AgentPolicyOptions {
  /** `tool-error`: the first step calls `get_video` with an id no video has the form of. */
  badFirstCall: boolean;
  /** `cite-unknown`: the answer also cites an evidence id it was never given. */
  citeUnknown: boolean;
  sequence: number;
}

const stopWords = new Set(
  'a about an and are as at be by can do does for from how i in is it me of on or please tell the this to what when where which who why with you your video videos youtube explain show find'.split(
    ' ',
  ),
);
const videoLink = /(?:youtube\.com\/(?:watch\?(?:[^\s#]*&)?v=|shorts\/)|youtu\.be\/)([A-Za-z0-9_-]{11})/g;

const topicWordsOf = (text: string) => [
  ...new Set((text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? []).filter((word) => word.length > 1 && !stopWords.has(word))),
];

interface ToolExchange {
  name: string;
  arguments: Record<string, unknown>;
  /** The parsed result; undefined while unanswered or when it reported an error. */
  result?: unknown;
}

function parse(text: string | null | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return text;
  }
}

function contentText(content: ChatRequest['messages'][number]['content']): string {
  return typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('\n');
}

/** The tool calls the conversation made, in order, with their results. */
function exchangesOf(request: ChatRequest): ToolExchange[] {
  const exchanges: ToolExchange[] = [];
  const byId = new Map<string, ToolExchange>();
  for (const message of request.messages) {
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) {
        const exchange = { name: call.function.name, arguments: (parse(call.function.arguments) ?? {}) as Record<string, unknown> };
        exchanges.push(exchange);
        byId.set(call.id, exchange);
      }
    } else if (message.role === 'tool' && message.tool_call_id) {
      const exchange = byId.get(message.tool_call_id);
      const result = parse(contentText(message.content));
      if (exchange && !(result && typeof result === 'object' && 'error' in result)) exchange.result = result;
    }
  }
  return exchanges;
}

/** Every `videoId` named in a value, in order. */
function videoIdsIn(value: unknown): string[] {
  return [...new Set([...JSON.stringify(value ?? null).matchAll(/"videoId":"([A-Za-z0-9_-]{11})"/g)].map((match) => match[1]!))];
}

/** Every evidence entry (`{evidenceId, text}`) in a value. */
function evidenceIn(value: unknown, found: Array<{ id: string; text: string }> = []): Array<{ id: string; text: string }> {
  if (Array.isArray(value)) for (const item of value) evidenceIn(item, found);
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.evidenceId === 'string' && typeof record.text === 'string') found.push({ id: record.evidenceId, text: record.text });
    for (const child of Object.values(record)) if (child && typeof child === 'object') evidenceIn(child, found);
  }
  return found;
}

const numberAfter = (text: string, noun: string, fallback: number) => {
  const match = new RegExp(`up to (\\d+) ${noun}`, 'i').exec(text);
  return match ? Number(match[1]) : fallback;
};

export function decideAgentStep(request: ChatRequest, options: AgentPolicyOptions): AgentDecision {
  const offered = new Set((request.tools ?? []).map((tool) => tool.function.name));
  const system = request.messages
    .filter((message) => message.role === 'system')
    .map((message) => contentText(message.content))
    .join('\n');
  const userMessages = request.messages.filter((message) => message.role === 'user').map((message) => contentText(message.content));
  const question = userMessages.at(-1) ?? '';
  const exchanges = exchangesOf(request);
  let next = 0;
  const call = (name: string, args: Record<string, unknown>): AgentToolCall => ({
    id: `call_fake_${options.sequence}_${next++}`,
    name,
    arguments: args,
  });

  if (exchanges.length === 0 && options.badFirstCall && offered.has('get_video')) {
    return { kind: 'tools', calls: [call('get_video', { videoId: 'not a video id' })] };
  }
  const answered = exchanges.filter((exchange) => exchange.result !== undefined);
  const searchIndex = exchanges.findIndex((exchange) => exchange.name === 'search_videos' && exchange.result !== undefined);
  const transcriptAsked = (from: number) => exchanges.slice(from).some((exchange) => exchange.name === 'get_transcript');
  if (!answered.some((exchange) => exchange.name === 'search_videos' || exchange.name === 'get_transcript')) {
    const linked = [...new Set([...question.matchAll(videoLink)].map((match) => match[1]!))];
    if (linked.length > 0 && offered.has('get_transcript') && !transcriptAsked(0)) {
      return { kind: 'tools', calls: linked.map((videoId) => call('get_transcript', { videoId })) };
    }
    if (offered.has('search_videos') && !exchanges.some((exchange) => exchange.name === 'search_videos')) {
      return { kind: 'tools', calls: [call('search_videos', { q: topicWordsOf(question).join(' ') || question })] };
    }
  }
  if (searchIndex >= 0 && !transcriptAsked(searchIndex + 1) && offered.has('get_transcript')) {
    const videoIds = videoIdsIn(exchanges[searchIndex]!.result).slice(0, numberAfter(system, 'transcripts', 3));
    if (videoIds.length > 0) return { kind: 'tools', calls: videoIds.map((videoId) => call('get_transcript', { videoId })) };
  }
  const firstTranscript = exchanges.find((exchange) => exchange.name === 'get_transcript');
  if (firstTranscript && offered.has('get_storyboard') && !exchanges.some((exchange) => exchange.name === 'get_storyboard')) {
    return { kind: 'tools', calls: [call('get_storyboard', { videoId: firstTranscript.arguments.videoId })] };
  }
  return { kind: 'answer', text: answerFrom(question, answered, numberAfter(system, 'passages', 3), options.citeUnknown) };
}

function answerFrom(question: string, answered: ToolExchange[], passages: number, citeUnknown: boolean): string {
  const words = topicWordsOf(question);
  const evidence = answered.flatMap((exchange) => evidenceIn(exchange.result));
  const scored = evidence
    .map((item, order) => {
      const text = item.text.toLowerCase();
      return { ...item, order, score: words.filter((word) => text.includes(word.slice(0, Math.max(4, word.length - 3)))).length };
    })
    .filter((item) => item.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, passages);
  if (scored.length === 0) return `I found no evidence in the tool results that answers "${question}".`;
  const sentences = scored.map((item) => {
    const clipped = item.text.length > 160 ? `${item.text.slice(0, 157)}…` : item.text;
    return `"${clipped}" [${item.id}]`;
  });
  if (citeUnknown) sentences.push('Another source agrees [ev_999].');
  return `From the transcripts: ${sentences.join(' ')}`;
}
