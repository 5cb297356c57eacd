import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { cleanText, type ParsedCue } from './parsed-captions';

/** A node of fast-xml-parser's ordered output: `{tag: children, ':@': attributes}` or `{'#text': text}`. */
type XmlNode = { [name: string]: XmlNode[] | string | Record<string, string> | undefined } & { ':@'?: Record<string, string> };

/*
 * Mixed content (text around `<s>` words and `<br/>`) must keep its order, so the output is ordered;
 * values stay strings (no number guessing, no trimming of the spaces between words); entities are
 * decoded, HTML ones (`&nbsp;`, `&#39;`) included.
 */
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
});

const tagOf = (node: XmlNode): string | undefined => Object.keys(node).find((key) => key !== ':@');

function childrenOf(node: XmlNode): XmlNode[] {
  const tag = tagOf(node);
  const children = tag ? node[tag] : undefined;
  return Array.isArray(children) ? children : [];
}

function millisecondsOf(node: XmlNode, name: string): number | undefined {
  const value = node[':@']?.[name];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** The text of some nodes, in document order; a line break is a space. */
function textOf(nodes: XmlNode[]): string {
  return nodes
    .map((node) => {
      const tag = tagOf(node);
      if (tag === '#text') return String(node['#text']);
      if (tag === 'br') return ' ';
      return textOf(childrenOf(node));
    })
    .join('');
}

/** Every element named `name` under `nodes`, in document order, not looking inside a match. */
function elementsNamed(nodes: XmlNode[], name: string): XmlNode[] {
  return nodes.flatMap((node) => (tagOf(node) === name ? [node] : elementsNamed(childrenOf(node), name)));
}

/**
 * srv3 (`<timedtext format="3">`): `<p t d>` cues in milliseconds; auto-generated tracks split a
 * cue into `<s t>` words whose `t` is an offset from the cue start. Read with an XML parser, so
 * entities, CDATA, comments and attribute quoting are XML's; a body that is not well-formed XML
 * is an error (the caller reports the caption body unreadable).
 */
export function parseSrv3(xml: string): ParsedCue[] {
  const validation = XMLValidator.validate(xml);
  if (validation !== true) throw new Error(`not well-formed XML (line ${validation.err.line}: ${validation.err.msg})`);
  const cues: ParsedCue[] = [];
  for (const cue of elementsNamed(parser.parse(xml) as XmlNode[], 'p')) {
    const startMs = millisecondsOf(cue, 't');
    if (startMs === undefined) continue;
    const endMs = startMs + (millisecondsOf(cue, 'd') ?? 0);
    const content = childrenOf(cue);
    const text = cleanText(textOf(content));
    if (!text) continue;
    const words = elementsNamed(content, 's')
      .map((span) => ({ startMs: startMs + (millisecondsOf(span, 't') ?? 0), text: cleanText(textOf(childrenOf(span))) }))
      .filter((word) => word.text);
    cues.push({ startMs, endMs, text, words: words.length > 0 ? words : undefined });
  }
  return cues;
}
