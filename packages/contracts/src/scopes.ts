import type { Scope } from './billing';

/**
 * The scopes each operation needs (ADR 0031), by operation id; the gateway enforces it and the OpenAPI
 * document shows it. An empty list: any valid credential. The health probes take no credential and are
 * not here; every protected operation must be (the gateway refuses to start without its entry).
 *
 * Rule of thumb: an answer carrying YouTube or saved data needs `data:read`; creating, changing or
 * deleting saved research data needs `data:write` (both when a created result carries data).
 */
export const operationScopes = {
  // Providers, videos, channels, playlists, discovery: reading YouTube data.
  listProviders: ['data:read'],
  getVideo: ['data:read'],
  getVideoTranscript: ['data:read'],
  getVideoComments: ['data:read'],
  getChannel: ['data:read'],
  listChannelPlaylists: ['data:read'],
  getPlaylist: ['data:read'],
  searchVideos: ['data:read'],
  getTopicTrends: ['data:read'],
  generateVideoPlan: ['data:write'],

  // Projects and evidence.
  listProjects: ['data:read'],
  getProject: ['data:read'],
  createProject: ['data:write'],
  updateProject: ['data:write'],
  deleteProject: ['data:write'],
  listProjectEvidence: ['data:read'],
  getProjectEvidence: ['data:read'],
  addProjectEvidence: ['data:write'],
  updateProjectEvidence: ['data:write'],
  deleteProjectEvidence: ['data:write'],
  // The contract fixes these two for project search.
  searchPrivateEvidence: ['data:read', 'account:access'],

  // Research: imports, jobs, answers, reports, comparisons, operations.
  createImport: ['data:write'],
  listProjectJobs: ['data:read'],
  getJob: ['data:read'],
  cancelJob: ['data:write'],
  createAnswer: ['data:read', 'data:write'],
  createReport: ['data:read', 'data:write'],
  createComparison: ['data:read', 'data:write'],
  getComparison: ['data:read'],
  listComparisons: ['data:read'],
  getOperation: ['data:read'],
  listOperations: ['data:read'],

  // Exports: creating one saves a job; its file is read with the download.
  createExport: ['data:write'],
  getExport: ['data:read'],
  listExports: ['data:read'],
  downloadExport: ['data:read'],

  // Agents.
  createAgentRun: ['agents:run'],
  cancelAgentRun: ['agents:run'],
  getAgentRun: ['data:read'],
  listAgentRuns: ['data:read'],
  streamAgentRunEvents: ['data:read'],

  // Monitoring.
  listMonitors: ['data:read'],
  getMonitor: ['data:read'],
  listMonitorChecks: ['data:read'],
  createMonitor: ['monitors:write'],
  updateMonitor: ['monitors:write'],
  deleteMonitor: ['monitors:write'],
  checkMonitor: ['monitors:write'],
  listNotifications: ['data:read'],
  markNotificationRead: ['monitors:write'],
  getDigestPreferences: ['data:read'],
  putDigestPreferences: ['monitors:write'],
  listWebhooks: ['data:read'],
  listWebhookDeliveries: ['data:read'],
  createWebhook: ['monitors:write'],
  deleteWebhook: ['monitors:write'],

  // Billing.
  getBillingStatus: ['billing:read'],
  listLedgerEntries: ['billing:read'],
  listPlans: [],

  // Authentication: API keys.
  createApiKey: ['account:manage'],
  listApiKeys: ['account:manage'],
  deleteApiKey: ['account:manage'],

  // Authentication: who am I (any valid credential), web and CLI sessions.
  getAuthSession: [],
  listAuthSessions: ['account:manage'],
  // Any credential may end its own session (`vrs logout` with a data:read CLI session); ending
  // another one needs account:manage, checked in the procedure (ADR 0037 addendum).
  deleteAuthSession: [],

  // Account.
  getAccount: ['account:manage'],
  updateAccount: ['account:manage'],
  deleteAccount: ['account:manage'],
} as const satisfies Record<string, readonly Scope[]>;

export type ScopedOperationId = keyof typeof operationScopes;

/** The scopes an operation needs, or undefined for an operation the table does not name. */
export function scopesOf(operationId: string): readonly Scope[] | undefined {
  return Object.hasOwn(operationScopes, operationId) ? operationScopes[operationId as ScopedOperationId] : undefined;
}
