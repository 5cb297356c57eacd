import { stringify } from 'csv-stringify/sync';
import type { ExportFormat } from '@vrs/contracts';
import type { EvidenceDoc } from '../repo/evidence-repo';

export interface ExportHeader {
  projectId: string;
  projectName: string;
  exportedAt: string;
}

/** A file written piece by piece: the head, each item in turn, the tail. Nothing holds the whole file. */
export interface ExportFormatter {
  contentType: string;
  extension: string;
  head(header: ExportHeader): string;
  item(doc: EvidenceDoc, position: number): string;
  tail(itemCount: number): string;
}

/** The fields of an item a file carries, in this order (CSV columns, JSON keys). */
const fields = ['id', 'sourceKey', 'provider', 'entityId', 'startMs', 'text', 'createdAt', 'updatedAt'] as const;

function publicItem(doc: EvidenceDoc): Record<string, string | number | undefined> {
  return Object.fromEntries(fields.map((field) => [field, field === 'id' ? doc._id : doc[field]]));
}

/**
 * One RFC 4180 record (CRLF). Every cell holding a quote, a comma, CR or LF is quoted: csv-stringify
 * quotes a cell holding the record delimiter, and with CRLF records a bare LF or CR is not it
 * (`quoted_match`). Cells are the data exactly, a leading `=`, `+`, `-` or `@` included (ADR 0086).
 */
const csvRecord = (cells: (string | number | undefined)[]) => stringify([cells], { record_delimiter: 'windows', quoted_match: /[\r\n]/ });

/** `1:02:03` from milliseconds, for people reading a Markdown export. */
function timestamp(ms: number): string {
  const total = Math.floor(ms / 1000);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}

export const exportFormatters: Record<ExportFormat, ExportFormatter> = {
  json: {
    contentType: 'application/json; charset=utf-8',
    extension: 'json',
    head: (header) =>
      `{"project":${JSON.stringify({ id: header.projectId, name: header.projectName })},"exportedAt":${JSON.stringify(header.exportedAt)},"evidence":[`,
    item: (doc, position) => `${position > 0 ? ',' : ''}\n${JSON.stringify(publicItem(doc))}`,
    tail: (itemCount) => `${itemCount > 0 ? '\n' : ''}],"itemCount":${itemCount}}\n`,
  },
  csv: {
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    head: () => csvRecord([...fields]),
    item: (doc) => csvRecord(fields.map((field) => publicItem(doc)[field])),
    tail: () => '',
  },
  markdown: {
    contentType: 'text/markdown; charset=utf-8',
    extension: 'md',
    head: (header) =>
      `# ${header.projectName.replace(/\s+/g, ' ')}\n\nEvidence exported ${header.exportedAt} from project \`${header.projectId}\`.\n`,
    item: (doc) => {
      const where = [
        doc.sourceKey && `\`${doc.sourceKey}\``,
        doc.entityId && `video ${doc.entityId}`,
        doc.startMs !== undefined && `at ${timestamp(doc.startMs)}`,
      ]
        .filter(Boolean)
        .join(' · ');
      // CR, LF and CRLF each end a Markdown line; every line of the text stays inside the quote.
      return `\n## ${doc._id}\n\n${doc.text
        .split(/\r\n|\r|\n/)
        .map((line) => `> ${line}`)
        .join('\n')}\n${where ? `\n${where}\n` : ''}`;
    },
    tail: (itemCount) => `\n---\n${itemCount} evidence item${itemCount === 1 ? '' : 's'}.\n`,
  },
};
