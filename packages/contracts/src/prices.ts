/**
 * Credits charged per metered operation (by operation id); one absent here is free, a failed one is
 * refunded in full. A pair prices an operation that may be answered from saved data: `fresh` when the
 * upstream platform is called, `cached` when a saved version is served (the fresh price is reserved up
 * front, the difference returned). A bounded multi-page mode (the newest-first comment collection) is
 * priced apart (`collectionFresh`, `collectionCached`); its facade says which to reserve and which applied.
 */
export type PriceVariant = 'fresh' | 'cached' | 'collectionFresh' | 'collectionCached';
export type Price = number | ({ fresh: number; cached: number } & Partial<Record<PriceVariant, number>>);

export const priceTable = {
  createProject: 1,
  listProjects: 0,
  addProjectEvidence: 1,
  searchPrivateEvidence: 1,
  // Provider reads (ADR 0007): fresh = fetched from YouTube now, cached = a saved version served.
  getVideo: { fresh: 2, cached: 1 },
  getVideoTranscript: { fresh: 3, cached: 1 },
  getVideoComments: { fresh: 3, cached: 1, collectionFresh: 10, collectionCached: 2 },
  getChannel: { fresh: 2, cached: 1 },
  listChannelPlaylists: { fresh: 2, cached: 1 },
  getPlaylist: { fresh: 2, cached: 1 },
  // A search is a query, not a resource: always answered by YouTube, never from a saved version.
  searchVideos: 2,
  // Research jobs (ADR 0011): an import is one price whatever its size. For the operations that
  // take an Idempotency-Key, `cached` is a replay: the first response served, nothing charged again.
  createImport: { fresh: 5, cached: 0 },
  getJob: 0,
  cancelJob: 0,
  // An answer searches YouTube and reads transcripts before the model runs; a report reads the project.
  createAnswer: 10,
  createReport: 5,
  getOperation: 0,
  createExport: { fresh: 2, cached: 0 },
  getExport: 0,
  downloadExport: 0,
  // Reads up to five videos or channels (and their transcripts) before the model runs.
  createComparison: 5,
  getComparison: 0,
  // Trends (ADR 0010): a report runs ~2 searches, up to 30 video and channel reads and one model
  // call, whatever the mode; a plan is one model call. A failed plan (no model) is refunded.
  getTopicTrends: 10,
  generateVideoPlan: 5,
  // Browsing and removing what you saved (ADR 0020): reading your own data is free, and so is
  // deleting it (nobody should pay to clean up); a rename touches one field. Changing an evidence
  // item re-indexes it, which is what adding one costs.
  listProjectEvidence: 0,
  getProjectEvidence: 0,
  updateProjectEvidence: 1,
  deleteProjectEvidence: 0,
  updateProject: 0,
  deleteProject: 0,
  listProjectJobs: 0,
  listExports: 0,
  listComparisons: 0,
  listOperations: 0,
  // Monitoring (ADR 0028): managing monitors and notifications is free; each scheduled check is
  // charged to the owner at the sum of the prices of the operations it calls (searchVideos; getChannel +
  // listChannelPlaylists; getVideo + getVideoComments, one newest-first page; getTopicTrends).
  // Agents (ADR 0025): admission holds the run's credit budget and each tool call is charged as it is
  // persisted, at the price of the operation it performs; what a run did not use goes back.
  createAgentRun: 0,
  getAgentRun: 0,
  listAgentRuns: 0,
  cancelAgentRun: 0,
  streamAgentRunEvents: 0,
} as const satisfies Record<string, Price>;

export type PricedOperation = keyof typeof priceTable;

/** What an operation costs: the given variant, or the most it can cost (what is reserved). */
export function priceOf(operationId: string, variant?: PriceVariant): number {
  const price = (priceTable as Record<string, Price>)[operationId];
  if (price === undefined) return 0;
  if (typeof price === 'number') return price;
  if (variant === undefined) return Math.max(...Object.values(price));
  return price[variant] ?? price.fresh;
}
