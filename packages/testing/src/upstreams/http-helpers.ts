import type { IncomingMessage, ServerResponse } from 'node:http';

/** What the fake upstreams share: reading a whole request body and answering JSON. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Answers JSON with the content type the real upstream sends (each fake passes its own). */
export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
  contentType = 'application/json',
): void {
  res.writeHead(status, { 'content-type': contentType, ...headers });
  res.end(JSON.stringify(value));
}
