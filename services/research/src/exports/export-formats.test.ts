import { describe, expect, it } from 'vitest';
import type { EvidenceDoc } from '../repo/evidence-repo';
import { exportFormatters } from './export-formats';

const doc = (text: string, extra: Partial<EvidenceDoc> = {}): EvidenceDoc =>
  ({
    _id: 'ev_1',
    projectId: 'p',
    text,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  }) as EvidenceDoc;

describe('CSV exports', () => {
  const csv = exportFormatters.csv;

  it('writes RFC 4180 records: quoted commas, doubled quotes, line breaks kept inside quotes', () => {
    expect(csv.head({ projectId: 'p', projectName: 'n', exportedAt: 'now' })).toBe(
      'id,sourceKey,provider,entityId,startMs,text,createdAt,updatedAt\r\n',
    );
    expect(csv.item(doc('He said "grind finer", then\nwaited', { startMs: 1200, sourceKey: 'a,b' }), 0)).toBe(
      'ev_1,"a,b",,,1200,"He said ""grind finer"", then\nwaited",2026-01-01T00:00:00.000Z,2026-01-01T00:00:00.000Z\r\n',
    );
  });

  it('quotes a cell holding a bare line feed or carriage return (issue 37, item 6)', () => {
    expect(csv.item(doc('one\ntwo', { sourceKey: 'cr\rhere' }), 0)).toBe(
      'ev_1,"cr\rhere",,,,"one\ntwo",2026-01-01T00:00:00.000Z,2026-01-01T00:00:00.000Z\r\n',
    );
  });

  it('keeps cells a spreadsheet would run as formulas exactly as they are (ADR 0086)', () => {
    for (const text of ['=HYPERLINK("http://evil","click")', '+1+1', '-2+3', '@SUM(A1)']) {
      const cell = csv.item(doc(text), 0).split(',').slice(5, -2).join(',');
      expect(cell.replace(/^"|"$/g, '').replaceAll('""', '"')).toBe(text);
    }
  });
});
