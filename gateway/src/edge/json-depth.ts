/** How deep arrays and objects may nest in a JSON body; documented in the OpenAPI description. */
export const maxJsonDepth = 64;

export class JsonTooDeepError extends Error {
  constructor() {
    super(`JSON nests deeper than ${maxJsonDepth} levels`);
    this.name = 'JsonTooDeepError';
  }
}

const [quote, backslash, openBracket, openBrace, closeBracket, closeBrace] = ['"', '\\', '[', '{', ']', '}'].map((char) =>
  char.charCodeAt(0),
);

/**
 * Refuses a JSON text whose arrays and objects nest deeper than `maxJsonDepth`, before it is parsed:
 * one pass over the bytes, skipping strings. Deep nesting is never a real request, and code that
 * walks parsed values recursively (validators, the tRPC adapter) would overflow the stack on it.
 */
export function assertJsonDepth(body: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (inString) {
      if (byte === backslash) i++;
      else if (byte === quote) inString = false;
    } else if (byte === quote) inString = true;
    else if (byte === openBracket || byte === openBrace) {
      if (++depth > maxJsonDepth) throw new JsonTooDeepError();
    } else if (byte === closeBracket || byte === closeBrace) depth--;
  }
}
