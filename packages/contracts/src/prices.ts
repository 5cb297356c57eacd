/**
 * Credits charged per metered operation (by operation id). An operation absent from this table is
 * free. A price is an integer, or a pair for operations that may be answered from saved data:
 * `fresh` when the upstream platform is called, `cached` when a saved version is served. The fresh
 * price is reserved up front and the difference returned when the cached one applies. A failed
 * operation is refunded in full.
 */
export type Price = number | { fresh: number; cached: number };
export type PriceVariant = 'fresh' | 'cached';

export const priceTable = {
  createProject: 1,
  listProjects: 0,
  addProjectEvidence: 1,
  searchPrivateEvidence: 1,
} as const satisfies Record<string, Price>;

export type PricedOperation = keyof typeof priceTable;

/** What an operation costs: the given variant, or the most it can cost (what is reserved). */
export function priceOf(operationId: string, variant: PriceVariant = 'fresh'): number {
  const price = (priceTable as Record<string, Price>)[operationId];
  if (price === undefined) return 0;
  return typeof price === 'number' ? price : price[variant];
}
