// A bare server answering a fixed JSON body: the ceiling the full stack is compared against.
// Env: BASELINE_KIND=express|http, BASELINE_BODY=<file with the JSON to answer>.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import express from 'express';

const kind = process.env.BASELINE_KIND;
const bodyFile = process.env.BASELINE_BODY;
if (!bodyFile) throw new Error('BASELINE_BODY must name the JSON file to answer with (bench/search/main.ts sets it)');
const body = JSON.parse(readFileSync(bodyFile, 'utf8'));

let server: http.Server;
if (kind === 'express') {
  const app = express();
  app.get('/v1/projects/:projectId/search', (_req, res) => {
    res.json(body);
  });
  server = app.listen(0, '127.0.0.1');
} else {
  server = http.createServer((_req, res) => {
    const payload = JSON.stringify(body);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload) });
    res.end(payload);
  });
  server.listen(0, '127.0.0.1');
}
server.on('listening', () => {
  console.log(JSON.stringify({ msg: 'baseline listening', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
});
