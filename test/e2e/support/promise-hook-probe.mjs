// Loaded with `--import` into a process under test: every 100 ms it writes how many symbol-keyed
// properties a new promise carries to PROMISE_HOOK_PROBE_FILE.<pid>. Node adds async ids there
// once async hooks (AsyncLocalStorage among them) are enabled, at a cost to every promise (ADR 0048).
import { writeFileSync } from 'node:fs';

const file = process.env.PROMISE_HOOK_PROBE_FILE;
if (file) {
  setInterval(() => writeFileSync(`${file}.${process.pid}`, String(Object.getOwnPropertySymbols(Promise.resolve()).length)), 100).unref();
}
