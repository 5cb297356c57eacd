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
