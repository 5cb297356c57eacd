import { cleanText, type ParsedCue } from './parsed-captions';

const namedEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1].toLowerCase() === 'x' ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return namedEntities[entity.toLowerCase()] ?? whole;
  });
}

function attribute(attributes: string, name: string): number | undefined {
  const match = new RegExp(`\\b${name}="(\\d+)"`).exec(attributes);
  return match ? Number(match[1]) : undefined;
}

const stripTags = (xml: string) => xml.replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]+>/g, '');

/**
 * srv3 (`<timedtext format="3">`): `<p t d>` cues in milliseconds; auto-generated tracks split a
 * cue into `<s t>` words whose `t` is an offset from the cue start. The format is flat and fixed,
 * so a tag scanner suffices; no XML library is needed.
 */
export function parseSrv3(xml: string): ParsedCue[] {
  const cues: ParsedCue[] = [];
  for (const match of xml.matchAll(/<p\b([^>]*)>([\s\S]*?)<\/p>/g)) {
    const [, attributes, inner] = match;
    const startMs = attribute(attributes, 't');
    if (startMs === undefined) continue;
    const endMs = startMs + (attribute(attributes, 'd') ?? 0);
    const spans = [...inner.matchAll(/<s\b([^>]*)>([\s\S]*?)<\/s>/g)];
    const text = cleanText(decodeEntities(stripTags(inner)));
    if (!text) continue;
    const words = spans
      .map(([, spanAttributes, spanText]) => ({
        startMs: startMs + (attribute(spanAttributes, 't') ?? 0),
        text: cleanText(decodeEntities(stripTags(spanText))),
      }))
      .filter((word) => word.text);
    cues.push({ startMs, endMs, text, words: words.length > 0 ? words : undefined });
  }
  return cues;
}
