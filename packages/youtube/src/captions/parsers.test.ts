import { describe, expect, it } from 'vitest';
import { parseJson3 } from './json3';
import { parseSrv3 } from './srv3';

describe('caption body parsers', () => {
  it('srv3: decodes entities and line breaks, skips empty cues, keeps word offsets relative to the cue', () => {
    const xml = `<timedtext format="3"><body>
<p t="1000" d="2000">Fish &amp; chips<br/>&#39;n&#x27; peas</p>
<p t="3000" d="10">
</p>
<p t="4000" d="1500"><s>one</s><s t="700"> two</s></p></body></timedtext>`;
    expect(parseSrv3(xml)).toEqual([
      { startMs: 1000, endMs: 3000, text: "Fish & chips 'n' peas", words: undefined },
      {
        startMs: 4000,
        endMs: 5500,
        text: 'one two',
        words: [
          { startMs: 4000, text: 'one' },
          { startMs: 4700, text: 'two' },
        ],
      },
    ]);
  });

  it('srv3 is read as XML: single-quoted attributes, CDATA, comments, nested formatting; malformed XML is an error', () => {
    const xml = `<?xml version="1.0" encoding="utf-8" ?><timedtext format='3'><head><ws id="1"/></head><body>
<!-- <p t="1" d="1">a comment, not a cue</p> -->
<p t='500' d="500"><![CDATA[Tom & Jerry <3]]></p>
<p t="2000" d="1000" wp="1"><s ac="0">caf&#233;</s><s t="300"><font color="#fff"> au&nbsp;lait</font></s></p>
</body></timedtext>`;
    expect(parseSrv3(xml)).toEqual([
      { startMs: 500, endMs: 1000, text: 'Tom & Jerry <3', words: undefined },
      {
        startMs: 2000,
        endMs: 3000,
        text: 'café au lait',
        words: [
          { startMs: 2000, text: 'café' },
          { startMs: 2300, text: 'au lait' },
        ],
      },
    ]);
    expect(() => parseSrv3('<timedtext><body><p t="0" d="1">unclosed</body></timedtext>')).toThrow(/not well-formed XML/);
  });

  it('json3: skips window events and bare line breaks; word segs only where offsets exist', () => {
    const body = JSON.stringify({
      events: [
        { tStartMs: 0, dDurationMs: 9000, id: 1 },
        { tStartMs: 0, dDurationMs: 2000, segs: [{ utf8: 'Hello there.' }] },
        { tStartMs: 2000, dDurationMs: 2000, segs: [{ utf8: 'hi' }, { utf8: ' you', tOffsetMs: 400 }] },
        { tStartMs: 3900, dDurationMs: 100, aAppend: 1, segs: [{ utf8: '\n' }] },
      ],
    });
    expect(parseJson3(body)).toEqual([
      { startMs: 0, endMs: 2000, text: 'Hello there.', words: undefined },
      {
        startMs: 2000,
        endMs: 4000,
        text: 'hi you',
        words: [
          { startMs: 2000, text: 'hi' },
          { startMs: 2400, text: 'you' },
        ],
      },
    ]);
  });
});
