/** One server-sent event of an agent run's stream. */
export interface StreamEvent {
  id: string | undefined;
  event: string;
  data: unknown;
}

/** Yields the events of an SSE response as they arrive (comments and keep-alives skipped). */
export async function* readEventStream(response: Response): AsyncGenerator<StreamEvent> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true }).replace(/\r\n/g, '\n');
    for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const event = parseBlock(block);
      if (event) yield event;
    }
  }
  const last = parseBlock(buffered);
  if (last) yield last;
}

function parseBlock(block: string): StreamEvent | undefined {
  let id: string | undefined;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return undefined;
  return { id, event, data: jsonOrText(data.join('\n')) };
}

/** The JSON value `text` holds, else the text itself (plain text data, a body that is not JSON). */
export function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
