import { isUtf8 } from 'node:buffer';
import { AppError } from '@vrs/kit';

/** How deep arrays and objects may nest in a JSON body; documented in the OpenAPI description. */
export const maxJsonDepth = 64;

// The bytes of `"`, `\`, `:`, `,`, `[`, `{`, `]` and `}`.
const [quote, backslash, colon, comma, openBracket, openBrace, closeBracket, closeBrace] = [
  0x22, 0x5c, 0x3a, 0x2c, 0x5b, 0x7b, 0x5d, 0x7d,
] as const;
const isWhitespace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** An open array or object while scanning: an object's keys so far, and the key or index the scan is in. */
interface Frame {
  keys: Set<string> | undefined;
  at: string | number;
}

/**
 * Takes a JSON body exactly as sent or not at all (ADR 0087), before it is parsed. It refuses, each
 * as a 400 in the envelope: bytes that are not UTF-8 (MALFORMED_JSON; a decoder would put U+FFFD in
 * their place), arrays and objects nested deeper than `maxJsonDepth` (JSON_TOO_DEEP: code that walks
 * parsed values recursively would overflow the stack), and an object naming a key twice
 * (DUPLICATE_KEY: JSON.parse would keep the last and drop the others without a word). `encoding` is
 * the charset body-parser read from Content-Type.
 */
export function checkJsonBody(body: Buffer, encoding = 'utf-8'): void {
  if (encoding === 'utf-8' || encoding === 'utf8') {
    if (!isUtf8(body)) throw new AppError('MALFORMED_JSON', 'The request body is not valid UTF-8.');
    scan(body);
    return;
  }
  let decode: (bytes: Buffer) => string;
  try {
    const decoder = new TextDecoder(encoding, { fatal: true });
    decode = (bytes) => decoder.decode(bytes);
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as UTF-8 JSON.');
  }
  let text: string;
  try {
    text = decode(body);
  } catch {
    throw new AppError('MALFORMED_JSON', `The request body is not valid ${encoding.toUpperCase()}.`);
  }
  scan(Buffer.from(text, 'utf8'));
}

/**
 * One pass over UTF-8 bytes; strings are skipped with a native search for their closing quote. A
 * string followed by `:` is a key of the innermost object, compared once its escapes are decoded
 * (`"a"` and `"\u0061"` are one key).
 */
function scan(body: Buffer): void {
  const frames: Frame[] = [];
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (byte === quote) {
      const start = i;
      i = closingQuote(body, i + 1);
      if (i === -1) return; // Unterminated: JSON.parse says so.
      const frame = frames[frames.length - 1];
      if (!frame?.keys) continue;
      let next = i + 1;
      while (isWhitespace(body[next])) next++;
      if (body[next] !== colon) continue;
      const key = keyOf(body, start, i);
      if (key === undefined) return;
      if (frame.keys.has(key)) {
        refuseDuplicate(body, frames, key);
        return;
      }
      frame.keys.add(key);
      frame.at = key;
    } else if (byte === openBrace || byte === openBracket) {
      if (frames.length === maxJsonDepth) throw new AppError('JSON_TOO_DEEP');
      frames.push({ keys: byte === openBrace ? new Set() : undefined, at: 0 });
    } else if (byte === closeBrace || byte === closeBracket) frames.pop();
    else if (byte === comma) {
      const frame = frames[frames.length - 1];
      if (frame && !frame.keys) (frame.at as number)++;
    }
  }
}

/** The index of the quote that ends the string whose content starts at `from` (one preceded by an even run of backslashes), or -1. */
function closingQuote(body: Buffer, from: number): number {
  for (let at = body.indexOf(quote, from); at !== -1; at = body.indexOf(quote, at + 1)) {
    let backslashes = 0;
    while (body[at - 1 - backslashes] === backslash) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

/** The key a string literal spells, or undefined when its escapes are malformed (JSON.parse refuses it then). */
function keyOf(body: Buffer, start: number, end: number): string | undefined {
  const raw = body.toString('utf8', start + 1, end);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(body.toString('utf8', start, end + 1)) as string;
  } catch {
    return undefined;
  }
}

/** DUPLICATE_KEY naming the key and where it is (`items.1.name`), for a body that is otherwise JSON. */
function refuseDuplicate(body: Buffer, frames: Frame[], key: string): void {
  try {
    JSON.parse(body.toString('utf8'));
  } catch {
    return; // Not JSON at all: MALFORMED_JSON is the better answer, and JSON.parse gives it.
  }
  const path = [...frames.slice(0, -1).map((frame) => frame.at), key].join('.');
  throw new AppError('DUPLICATE_KEY', `The body names the key ${JSON.stringify(key)} twice in one object, at ${path}.`, { key, path });
}
