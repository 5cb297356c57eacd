import { router } from '../trpc';
import { getHealth } from './system/get-health';
import { getReadiness } from './system/get-readiness';
import { requestDeviceCode } from './auth/request-device-code';
import { exchangeDeviceCode } from './auth/exchange-device-code';
import { createProject } from './projects/create-project';
import { listProjects } from './projects/list-projects';
import { getProject } from './projects/get-project';
import { updateProject } from './projects/update-project';
import { deleteProject } from './projects/delete-project';
import { listProjectEvidence } from './projects/list-project-evidence';
import { getProjectEvidence } from './projects/get-project-evidence';
import { updateProjectEvidence } from './projects/update-project-evidence';
import { deleteProjectEvidence } from './projects/delete-project-evidence';
import { addProjectEvidence } from './projects/add-project-evidence';
import { searchPrivateEvidence } from './projects/search-private-evidence';
import { getBillingStatus } from './billing/get-billing-status';
import { listLedgerEntries } from './billing/list-ledger-entries';
import { listPlans } from './billing/list-plans';
import { listProviders } from './providers/list-providers';
import { getVideoTranscript } from './videos/get-video-transcript';
import { getVideoComments } from './videos/get-video-comments';
import { getVideo } from './videos/get-video';
import { listChannelPlaylists } from './channels/list-channel-playlists';
import { getChannel } from './channels/get-channel';
import { getPlaylist } from './playlists/get-playlist';
import { searchVideos } from './discovery/search-videos';
import { getTopicTrends } from './discovery/get-topic-trends';
import { generateVideoPlan } from './discovery/generate-video-plan';
import { createImport } from './research/create-import';
import { cancelJob } from './research/cancel-job';
import { getJob } from './research/get-job';
import { listProjectJobs } from './research/list-project-jobs';
import { createAnswer } from './research/create-answer';
import { createReport } from './research/create-report';
import { getOperation } from './research/get-operation';
import { listOperations } from './research/list-operations';
import { createComparison } from './research/create-comparison';
import { getComparison } from './research/get-comparison';
import { listComparisons } from './research/list-comparisons';
import { createExport } from './exports/create-export';
import { getExport } from './exports/get-export';
import { listExports } from './exports/list-exports';
import { listMonitorChecks } from './monitoring/list-monitor-checks';
import { checkMonitor } from './monitoring/check-monitor';
import { getMonitor } from './monitoring/get-monitor';
import { updateMonitor } from './monitoring/update-monitor';
import { deleteMonitor } from './monitoring/delete-monitor';
import { listMonitors } from './monitoring/list-monitors';
import { createMonitor } from './monitoring/create-monitor';
import { markNotificationRead } from './monitoring/mark-notification-read';
import { listNotifications } from './monitoring/list-notifications';
import { getDigestPreferences } from './monitoring/get-digest-preferences';
import { putDigestPreferences } from './monitoring/put-digest-preferences';
import { listWebhookDeliveries } from './monitoring/list-webhook-deliveries';
import { deleteWebhook } from './monitoring/delete-webhook';
import { listWebhooks } from './monitoring/list-webhooks';
import { createWebhook } from './monitoring/create-webhook';
import { createAgentRun } from './agents/create-agent-run';
import { cancelAgentRun } from './agents/cancel-agent-run';
import { getAgentRun } from './agents/get-agent-run';
import { listAgentRuns } from './agents/list-agent-runs';
import { createApiKey } from './api-keys/create-api-key';
import { listApiKeys } from './api-keys/list-api-keys';
import { deleteApiKey } from './api-keys/delete-api-key';
import { deleteAccount } from './account/delete-account';
import { getAuthSession } from './auth/get-auth-session';
import { listAuthSessions } from './auth/list-auth-sessions';
import { deleteAuthSession } from './auth/delete-auth-session';
import { getAccount } from './account/get-account';
import { updateAccount } from './account/update-account';

/**
 * The public REST facade. Each procedure lives in `v1/<tag>/<operation>.ts`; its meta holds the
 * path. Longer paths first: the REST handler matches case-insensitively and the first route wins.
 */
export const v1Router = router({
  system: router({ getReadiness, getHealth }),
  auth: router({ deleteAuthSession, listAuthSessions, getAuthSession }),
  account: router({ getAccount, updateAccount, deleteAccount }),
  device: router({ requestDeviceCode, exchangeDeviceCode }),
  projects: router({
    getProjectEvidence,
    updateProjectEvidence,
    deleteProjectEvidence,
    searchPrivateEvidence,
    listProjectEvidence,
    addProjectEvidence,
    getProject,
    updateProject,
    deleteProject,
    listProjects,
    createProject,
  }),
  billing: router({ listPlans, listLedgerEntries, getBillingStatus }),
  providers: router({ listProviders }),
  videos: router({ getVideoTranscript, getVideoComments, getVideo }),
  channels: router({ listChannelPlaylists, getChannel }),
  playlists: router({ getPlaylist }),
  discovery: router({ searchVideos, getTopicTrends, generateVideoPlan }),
  research: router({
    listProjectJobs,
    createImport,
    cancelJob,
    getJob,
    createAnswer,
    createReport,
    getOperation,
    listOperations,
    createComparison,
    getComparison,
    listComparisons,
  }),
  exports: router({ createExport, getExport, listExports }),
  monitoring: router({
    listMonitorChecks,
    checkMonitor,
    getMonitor,
    updateMonitor,
    deleteMonitor,
    listMonitors,
    createMonitor,
    markNotificationRead,
    listNotifications,
    getDigestPreferences,
    putDigestPreferences,
    listWebhookDeliveries,
    deleteWebhook,
    listWebhooks,
    createWebhook,
  }),
  agents: router({ createAgentRun, cancelAgentRun, getAgentRun, listAgentRuns }),
  apiKeys: router({ deleteApiKey, listApiKeys, createApiKey }),
});

export type V1Router = typeof v1Router;
