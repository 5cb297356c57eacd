/**
 * `value`, which the caller knows is there: a map entry it has just set, a row it has just written,
 * a setting start-up has checked. Its absence is a bug, not a case to handle: the error says what
 * was missing and why it should not have been. Where a value may truly be missing (input, a store
 * row someone else may have deleted, optional config), handle that case instead.
 */
export function required<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`missing ${what}`);
  return value;
}
