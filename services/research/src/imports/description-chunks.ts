import { defaultChunkLimits, type ChunkLimits } from './transcript-chunks';

/*
 * A video description is part what the video is about, part boilerplate: link lists, social
 * handles, sponsor and affiliate lines, hashtag rows, disclaimers. Only the first is evidence
 * (issue 13 item 12): a report that quotes "Instagram: https://…" or a legal disclaimer cites nothing.
 */

const url = /\b(?:https?:\/\/|www\.)\S+|\b[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|io|ly|be|gg|tv|me|co|uk|app|link|shop|store|to)\/\S*/i;
const email = /[\w.+-]+@[\w-]+\.[\w.]+/;
const hashtagsOnly = /^(?:#[\p{L}\p{N}_]+[\s,]*)+$/u;
const separator = /^[\s\-=_*~•·▬━─—–.+#|]{3,}$/u;
const socialLabel =
  /^(?:instagram|twitter|x|facebook|tiktok|twitch|discord|linkedin|snapchat|threads|pinterest|reddit|patreon|website|blog|podcast|spotify|apple podcasts|newsletter|merch|email|e-mail|business(?: inquiries| enquiries)?|contact|socials?)\b[^.!?:]{0,30}(?::|\s[-–|]\s)/i;
const promotion =
  /\b(?:follow (?:me|us)|subscribe|find (?:me|us)|connect with (?:me|us)|support (?:me|us|the channel)|join (?:my|our|the) (?:discord|community|newsletter|membership)|sponsor(?:ed)?|affiliate|commission|promo code|discount code|use (?:my )?code|coupon|paid partnership|patreon|merch|gear i use|my (?:gear|setup|camera)|links? below|check out (?:my|our)|all rights reserved|not (?:financial|medical|legal|investment|professional) advice)\b/i;
const disclaimerStart = /^(?:disclaimers?|disclosures?|legal notice|copyright|©)(?:\b|\s)/i;
const musicCredit = /^(?:music|song|track|soundtrack|beats?|audio)\s*(?:by|:|-)/i;

const boilerplate = [url, email, hashtagsOnly, separator, socialLabel, promotion, musicCredit];

/** A line that is never evidence on its own: links, contacts, handles, promotion, hashtag rows, credits. */
export function isBoilerplateLine(line: string): boolean {
  return boilerplate.some((pattern) => pattern.test(line));
}

/**
 * The paragraphs of a description that are evidence. The text is cut into blocks at blank lines
 * and separator rows; a block whose lines are at least half boilerplate is a link list or contact
 * block and goes whole (with its heading and the odd unlinked line, like "Podcast: <name>"); a
 * disclaimer runs from its heading to the next separator row or the end. In a block that stays,
 * boilerplate lines go, and so does a heading ("Resources:") whose next line went.
 */
export function descriptionParagraphs(description: string): string[] {
  let current: { lines: string[]; endsAtSeparator: boolean } = { lines: [], endsAtSeparator: false };
  const blocks = [current];
  for (const raw of description.split(/\r?\n/)) {
    const line = raw.replace(/\s+/g, ' ').trim();
    if (!line || separator.test(line)) {
      if (current.lines.length > 0 || separator.test(line)) {
        current.endsAtSeparator = separator.test(line);
        current = { lines: [], endsAtSeparator: false };
        blocks.push(current);
      }
      continue;
    }
    current.lines.push(line);
  }
  const paragraphs: string[] = [];
  let inDisclaimer = false;
  for (const { lines, endsAtSeparator } of blocks) {
    if (lines[0] !== undefined && disclaimerStart.test(lines[0])) inDisclaimer = true;
    const skip = inDisclaimer || lines.filter(isBoilerplateLine).length * 2 >= lines.length;
    if (endsAtSeparator) inDisclaimer = false;
    if (skip || lines.length === 0) continue;
    const kept: string[] = [];
    lines.forEach((line, i) => {
      if (isBoilerplateLine(line)) return;
      const next = lines[i + 1];
      if (line.endsWith(':') && line.length <= 60 && (next === undefined || isBoilerplateLine(next))) return;
      kept.push(line);
    });
    if (kept.length > 0) paragraphs.push(kept.join('\n'));
  }
  return paragraphs;
}

const sentenceEnd = /[.!?…:]["'”’)\]]*$/;

/** Sentences of a paragraph, each line at least one; a sentence longer than `maxChars` is cut between words. */
function unitsOf(paragraph: string, maxChars: number): string[] {
  const units: string[] = [];
  for (const line of paragraph.split('\n')) {
    for (const sentence of line.split(/(?<=[.!?…])\s+/)) {
      let rest = sentence;
      while (rest.length > maxChars) {
        const cut = rest.lastIndexOf(' ', maxChars);
        const at = cut > 0 ? cut : maxChars;
        units.push(rest.slice(0, at));
        rest = rest.slice(at).trimStart();
      }
      if (rest) units.push(rest);
    }
  }
  return units;
}

/**
 * The evidence of a description in citation-sized chunks, as transcripts are cut: a chunk closes at
 * a sentence or paragraph end once it holds `minChars`, and never grows past `maxChars`.
 */
export function chunkDescription(description: string, limits: Pick<ChunkLimits, 'minChars' | 'maxChars'> = defaultChunkLimits): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const paragraph of descriptionParagraphs(description)) {
    const units = unitsOf(paragraph, limits.maxChars);
    units.forEach((unit, i) => {
      if (current && current.length + 1 + unit.length > limits.maxChars) {
        chunks.push(current);
        current = '';
      }
      current = current ? `${current} ${unit}` : unit;
      const paragraphEnd = i === units.length - 1;
      if (current.length >= limits.minChars && (paragraphEnd || sentenceEnd.test(unit))) {
        chunks.push(current);
        current = '';
      }
    });
  }
  if (current) chunks.push(current);
  return chunks;
}
