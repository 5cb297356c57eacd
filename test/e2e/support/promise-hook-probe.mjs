// Loaded with `--import` into a process under test: every 100 ms it writes how many symbol-keyed
// properties a new promise carries to PROMISE_HOOK_PROBE_FILE.<pid> (a worker thread, which
// `--import` reaches too, to .<pid>.<threadId>). Node adds async ids there once async hooks
// (AsyncLocalStorage among them) are enabled, at a cost to every promise (ADR 0048). Written to a
// temporary file and renamed, so a reader never sees a file that was emptied and not yet written.
import { renameSync, writeFileSync } from 'node:fs';
import { isMainThread, threadId } from 'node:worker_threads';

const file = process.env.PROMISE_HOOK_PROBE_FILE;
if (file) {
  const reading = isMainThread ? `${file}.${process.pid}` : `${file}.${process.pid}.${threadId}`;
  setInterval(() => {
    writeFileSync(`${reading}.tmp`, String(Object.getOwnPropertySymbols(Promise.resolve()).length));
    renameSync(`${reading}.tmp`, reading);
  }, 100).unref();
}
