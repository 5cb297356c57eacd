import { fabricatedIdLike, idsForField, type PromptFacts, type PromptId } from './prompt-facts';

/** The part of JSON Schema (draft-07, as zod and the AI SDK emit it) that the fake model fills. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  definitions?: Record<string, JsonSchema>;
  $defs?: Record<string, JsonSchema>;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

export interface FillOptions {
  /**
   * Cite ids the prompt never gave: id lists alternate between real ids plus a fabricated one (to be
   * repaired) and only a fabricated one (to be dropped); prose carries a `[n]` marker past the last entry.
   */
  citeUnknown: boolean;
  /**
   * Answer with findings their windows do not back: quotes no entry contains, every other citation
   * number past the last entry, and cited prose naming a person and a year the prompt never gave.
   */
  unground?: boolean;
}

// Names of fields holding ids, and of numbers pointing at a `[n]` entry.
const idField = /(^ids?$|Ids?$|^(citations?|sources?|references?)$)/;
const citationNumberField = /^(index|citation|ref|source)(e?s)?$|(Index|Citation|Ref)$/;
// Verbatim passages: copied word for word from an entry, never cut mid-word or marked.
const quoteField = /^(quotes?|excerpts?|passages?)$/i;
// What an ungrounded answer quotes and names: in no entry of any prompt.
const inventedQuote = 'a passage the fake model made up and no window contains';
const inventedEntity = ' as Zebulon Quillfeather reported in 1887';
const maxProseChars = 120;
// Prose that a real model would annotate with `[n]` markers.
const citedProseField = /(answer|summary|text|body|content|claim|statement|explanation|paragraph|markdown|report)/i;
// Backstop for recursion that lists do not end (a self-referencing object property).
const maxDepth = 12;
const unboundedInteger = Number.MAX_SAFE_INTEGER;

/** Builds a value valid against `schema` (draft-07 subset above) from what the prompt contained. */
export function fillSchema(schema: JsonSchema, facts: PromptFacts, options: FillOptions): unknown {
  return new SchemaFiller(schema, facts, options).fill(schema, '', 0);
}

class SchemaFiller {
  private idFieldsFilled = 0;
  private citationsFilled = 0;
  private readonly cursors = new Map<string, number>();
  /** How many times each $ref is being expanded: a recursive schema's lists end at the second level. */
  private readonly openRefs = new Map<string, number>();
  private readonly lastEntryIndex: number;

  constructor(
    private readonly root: JsonSchema,
    private readonly facts: PromptFacts,
    private readonly options: FillOptions,
  ) {
    this.lastEntryIndex = Math.max(0, ...facts.entries.map((entry) => entry.index));
  }

  fill(schema: JsonSchema, field: string, depth: number): unknown {
    if (depth > maxDepth) return null;
    if (schema.$ref) {
      const open = this.openRefs.get(schema.$ref) ?? 0;
      this.openRefs.set(schema.$ref, open + 1);
      try {
        return this.fill(this.resolve(schema.$ref), field, depth + 1);
      } finally {
        this.openRefs.set(schema.$ref, open);
      }
    }
    if ('const' in schema) return schema.const;
    if (schema.enum) return schema.enum[0];
    const options = schema.anyOf ?? schema.oneOf;
    if (options) return this.fill(options.find((option) => option.type !== 'null') ?? options[0]!, field, depth + 1);
    if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => this.fill(part, field, depth + 1)));
    switch (typeOf(schema)) {
      case 'object':
        return this.object(schema, field, depth);
      case 'array':
        return this.array(schema, field, depth);
      case 'integer':
      case 'number':
        return citationNumberField.test(field) && this.facts.entries.length > 0 ? this.citationNumber() : this.number(schema);
      case 'boolean':
        return true;
      case 'null':
        return null;
      default:
        return idField.test(field) ? this.singleId(field) : this.string(schema, field);
    }
  }

  private resolve(ref: string): JsonSchema {
    if (ref === '#') return this.root;
    const [, bucket, name] = /^#\/(definitions|\$defs)\/(.+)$/.exec(ref) ?? [];
    const target = bucket ? this.root[bucket as 'definitions' | '$defs']?.[decodeURIComponent(name ?? '')] : undefined;
    if (!target) throw new Error(`the fake LLM cannot resolve $ref ${ref}`);
    return target;
  }

  private object(schema: JsonSchema, field: string, depth: number): Record<string, unknown> {
    if (schema.properties) {
      return Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, this.fill(property, name, depth + 1)]));
    }
    if (typeof schema.additionalProperties === 'object') {
      return { example: this.fill(schema.additionalProperties, field, depth + 1) };
    }
    return {};
  }

  private array(schema: JsonSchema, field: string, depth: number): unknown[] {
    if (Array.isArray(schema.items)) return schema.items.map((item) => this.fill(item, field, depth + 1));
    const items = schema.items ?? {};
    const minItems = schema.minItems ?? 0;
    const maxItems = schema.maxItems ?? Infinity;
    if (idField.test(field) && typeOf(items) === 'string' && !items.enum) return this.idList(field, minItems, maxItems);
    if ([...this.openRefs.values()].some((open) => open > 1)) return [];
    return Array.from({ length: clamp(2, minItems, maxItems) }, () => this.fill(items, field, depth + 1));
  }

  private idList(field: string, minItems: number, maxItems: number): string[] {
    const candidates = idsForField(this.facts, field);
    const fabricated = fabricatedIdLike(candidates);
    const position = this.idFieldsFilled++;
    const wanted = clamp(2, minItems, maxItems);
    if (this.options.citeUnknown) {
      return position % 2 === 0 ? [...this.take(field, candidates, Math.max(0, wanted - 1)), fabricated] : [fabricated];
    }
    const real = this.take(field, candidates, wanted);
    // A prompt that gave no ids still gets a schema-valid answer; grounding then rejects it.
    return real.length >= minItems ? real : [...real, ...Array(minItems - real.length).fill(fabricated)];
  }

  private singleId(field: string): string {
    const candidates = idsForField(this.facts, field);
    const position = this.idFieldsFilled++;
    if (candidates.length === 0 || (this.options.citeUnknown && position % 2 === 1)) return fabricatedIdLike(candidates);
    return this.take(field, candidates, 1)[0]!;
  }

  /** Up to `count` candidates, starting one further each call, so successive claims cite different evidence. */
  private take(field: string, candidates: PromptId[], count: number): string[] {
    const start = this.advance(field);
    const taken = new Set<string>();
    for (let offset = 0; offset < candidates.length && taken.size < count; offset += 1) {
      taken.add(candidates[(start + offset) % candidates.length]!.value);
    }
    return [...taken];
  }

  private advance(key: string): number {
    const position = this.cursors.get(key) ?? 0;
    this.cursors.set(key, position + 1);
    return position;
  }

  private citationNumber(): number {
    const position = this.citationsFilled++;
    if ((this.options.citeUnknown || this.options.unground) && position % 2 === 1) return this.lastEntryIndex + 1;
    return this.facts.entries[position % this.facts.entries.length]!.index;
  }

  private number(schema: JsonSchema): number {
    const bound = (value: number | undefined) => (value !== undefined && Math.abs(value) < unboundedInteger ? value : undefined);
    const low = bound(schema.minimum) ?? bound(schema.exclusiveMinimum);
    const high = bound(schema.maximum) ?? bound(schema.exclusiveMaximum);
    const value =
      low !== undefined && high !== undefined ? (low + high) / 2 : low !== undefined ? low + 1 : high !== undefined ? high - 1 : 1;
    return typeOf(schema) === 'integer' ? Math.round(value) : value;
  }

  private string(schema: JsonSchema, field: string): string {
    const formatted = formattedString(schema.format);
    if (formatted) return formatted;
    const text = this.prose(field);
    const long = text.length < (schema.minLength ?? 0) ? text.padEnd(schema.minLength ?? 0, '.') : text;
    return schema.maxLength !== undefined ? long.slice(0, schema.maxLength) : long;
  }

  /** A sentence from the next `[n]` entry of the prompt (marked `[n]` where a real answer would cite it), else about its topic. */
  private prose(field: string): string {
    const { entries, topic } = this.facts;
    if (entries.length === 0) return `${humanize(field)} about ${topic.slice(0, 80)}`.trim();
    const { index, text } = entries[this.advance(`prose:${field}`) % entries.length]!;
    if (quoteField.test(field)) return this.options.unground ? inventedQuote : wordsUpTo(text, maxProseChars);
    const sentence = text.length > maxProseChars ? `${wordsUpTo(text, maxProseChars - 3)}...` : text;
    if (!citedProseField.test(field)) return sentence;
    const invented = this.options.citeUnknown ? ` [${this.lastEntryIndex + 1}]` : '';
    const named = this.options.unground ? inventedEntity : '';
    return `${sentence.replace(/[.\s]+$/, '')}${named} [${index}]${invented}.`;
  }
}

/** The leading whole words of `text` that fit in `limit` characters (at least the first word). */
function wordsUpTo(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit + 1);
  const end = cut.lastIndexOf(' ');
  return (end > 0 ? cut.slice(0, end) : text.split(' ')[0]!).trimEnd();
}

function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') ?? 'null';
  return schema.type ?? (schema.properties || schema.additionalProperties ? 'object' : schema.items ? 'array' : 'string');
}

function formattedString(format: string | undefined): string | undefined {
  switch (format) {
    case 'date-time':
      return '2026-01-01T00:00:00Z';
    case 'date':
      return '2026-01-01';
    case 'uri':
    case 'url':
      return 'https://example.com/';
    case 'email':
      return 'fake-llm@example.com';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    default:
      return undefined;
  }
}

function humanize(field: string): string {
  const words =
    field
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/[_-]+/g, ' ')
      .toLowerCase()
      .trim() || 'text';
  return words[0]!.toUpperCase() + words.slice(1);
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}
