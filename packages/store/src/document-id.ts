/** The port's `_id` is always a caller-chosen string; refuse anything else on both adapters. */
export function requireStringId(doc: { _id?: unknown }): void {
  if (typeof doc._id !== 'string') {
    throw new TypeError(`store documents need a string _id, got ${doc._id === undefined ? 'none' : typeof doc._id}`);
  }
}
