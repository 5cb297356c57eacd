/**
 * What the fake model "knows": the ids and numbered evidence entries written in the prompt it was
 * sent. Everything it answers is built from these, so tests can tell grounded output from invented.
 */

export interface PromptId {
  value: string;
  /** What the prompt called it: the key before it (`videoId` → `video`, `id` → ``) or its prefix (`ev_1` → `ev`). */
  labels: string[];
}

export interface NumberedEntry {
  /** n of a line written `[n] …`. */
  index: number;
  text: string;
}

export interface PromptFacts {
  ids: PromptId[];
  entries: NumberedEntry[];
  /** The first line of the prompt, for prose when it lists no entries. */
  topic: string;
}

// `ev_7f3a…`, `prj_12`: a short lower-case prefix and a body holding a digit, so snake_case words
// (`trend_score`, `vid_fabricated`) are not taken for ids.
const prefixedId = /\b([a-z]{2,5})_([A-Za-z0-9-]*\d[A-Za-z0-9-]*)\b/g;
// `id: x`, `videoId=x`, `"videoId": "x"` — how prompts and JSON embedded in them name ids.
const labelledId = /(?:\b|")(id|[a-z][A-Za-z]*Id)"?\s*[:=]\s*"?([A-Za-z0-9_-]{3,64})/g;
const numberedLine = /^\s*\[(\d+)\]\s*(.+?)\s*$/gm;

export function readPromptFacts(prompt: string): PromptFacts {
  const found = new Map<string, { position: number; labels: Set<string> }>();
  const note = (value: string, label: string, position: number) => {
    const seen = found.get(value);
    if (seen) {
      seen.labels.add(label);
      seen.position = Math.min(seen.position, position);
    } else {
      found.set(value, { position, labels: new Set([label]) });
    }
  };
  for (const match of prompt.matchAll(prefixedId)) note(match[0], match[1]!, match.index);
  for (const match of prompt.matchAll(labelledId))
    note(match[2]!, match[1]!.replace(/Id$/, '').replace(/^id$/, '').toLowerCase(), match.index);
  const ids = [...found.entries()]
    .sort(([, a], [, b]) => a.position - b.position)
    .map(([value, { labels }]) => ({ value, labels: [...labels] }));
  const entries = [...prompt.matchAll(numberedLine)].map((match) => ({ index: Number(match[1]), text: match[2]! }));
  const topic = prompt.trim().split('\n')[0]?.trim() ?? '';
  return { ids, entries, topic };
}

/**
 * The ids fit for a field: `videoIds` takes ids labelled `video…`/`vid`, `evidenceIds` those labelled
 * `ev…`; a field whose name says nothing (`ids`, `sources`), or matches no label, takes them all.
 */
export function idsForField(facts: PromptFacts, fieldName: string): PromptId[] {
  const stem = fieldName.toLowerCase().replace(/ids?$/, '').replace(/s$/, '');
  if (!stem) return facts.ids;
  const fitting = facts.ids.filter(({ labels }) => labels.some((label) => label && (stem.startsWith(label) || label.startsWith(stem))));
  return fitting.length > 0 ? fitting : facts.ids;
}

/** An id no prompt gave: `ev_fabricated` beside ids written `ev_…`, `vid_fabricated` otherwise (video ids have no prefix). */
export function fabricatedIdLike(candidates: PromptId[]): string {
  const prefix = candidates.map(({ value }) => /^([a-z]{2,5})_/.exec(value)?.[1]).find(Boolean);
  return `${prefix ?? 'vid'}_fabricated`;
}
