/**
 * Credits charged per metered operation (by operation id). An operation absent from this table
 * is free. Prices are integers; a failed operation is refunded in full.
 */
export const priceTable = {
  createProject: 1,
  listProjects: 0,
  addProjectEvidence: 1,
  searchPrivateEvidence: 1,
} as const satisfies Record<string, number>;

export type PricedOperation = keyof typeof priceTable;

export function priceOf(operationId: string): number {
  return (priceTable as Record<string, number>)[operationId] ?? 0;
}
