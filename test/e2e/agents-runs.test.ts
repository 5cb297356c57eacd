import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { BillingRouter } from '@vrs/billing';
import { createServiceClient } from '@vrs/kit';
import { apiClient, eventually, type ApiCall } from '@vrs/testing/api-client';
import { uniqueEmail } from '@vrs/testing/web-session';
import { hasRecorded, hasSynthetic } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { fakeYouTubeControl } from '@vrs/testing/upstreams/youtube/control-client';
import { accountOf, admit, agentsOperator, ended, laryngealQuestion, readEventStream, runPathOf } from './agents-support';

const gatewayUrl = inject('gatewayUrl');
const stackEnv = inject('stackEnv');
const youtube = fakeYouTubeControl(inject('youtubeUpstreamUrl'));
const operator = agentsOperator(inject('agentsServiceUrl'), stackEnv.INTERNAL_TOKEN!);

/** A demo user of its own, allowed to run agents through the stored allowlist (the shared stack has demo access off). */
async function allowedUser(name: string): Promise<{ api: ApiCall; headers: Record<string, string> }> {
  const headers = { 'x-demo-user': `agents-${name}-${randomUUID()}` };
  const api = apiClient(gatewayUrl, headers);
  const { accountId } = await accountOf(api);
  await operator.access.allow.mutate({ accountId });
  return { api, headers };
}

/** A run kept busy: its search (of words no recording has) waits `delayMs` at the fake YouTube, then fails. */
async function slowRun(api: ApiCall, delayMs: number, extra: Record<string, unknown> = {}) {
  const word = `slowtopic${randomUUID().slice(0, 8)}`;
  await youtube.addFault({ match: { query: `${word} research` }, kind: 'latency', delayMs, times: 1 });
  return admit(api, { message: `${word} research`, ...extra });
}

describe('agent runs: access', () => {
  it('answers 403 AGENTS_NOT_ENABLED to an account that is not allowlisted, charging nothing, and admits it once allowed', async () => {
    const api = apiClient(gatewayUrl, { 'x-demo-user': `agents-refused-${randomUUID()}` });
    const { accountId, balance } = await accountOf(api);
    const refused = await api('POST', '/v1/agent/runs', { json: { message: laryngealQuestion } });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.error.code).toBe('AGENTS_NOT_ENABLED');
    expect((await accountOf(api)).balance).toBe(balance);
    // Stored by the operator procedure, effective at once (no restart).
    await operator.access.allow.mutate({ accountId });
    const before = (await accountOf(api)).balance;
    const admitted = await api('POST', '/v1/agent/runs', { json: { message: 'hi' } });
    expect(admitted.status, admitted.text).toBe(202);
    // The hold, told as the import's 202 tells it (ADR 0092): nothing charged yet, the balance it left.
    expect(admitted.body.creditsHeld).toBeGreaterThan(0);
    expect(admitted.headers.get('x-credits-charged')).toBe('0');
    expect(Number(admitted.headers.get('x-credits-remaining'))).toBe(before - admitted.body.creditsHeld);
    await operator.access.allow.mutate({ accountId, allowed: false });
    expect((await api('POST', '/v1/agent/runs', { json: { message: 'hi', sessionId: admitted.body.sessionId } })).status).toBe(403);
  });

  it('allowlists an account that signed up with an email address only once the address is verified', async () => {
    const billing = createServiceClient<BillingRouter>({
      mode: 'http',
      url: stackEnv.BILLING_SERVICE_URL!,
      internalToken: stackEnv.INTERNAL_TOKEN!,
      caller: 'e2e',
      timeoutMs: 30_000,
    });
    const signedUp = await billing.identity.signUp.mutate({ email: uniqueEmail('agents'), password: 'a long enough password' });
    expect(signedUp?.created).toBe(true);
    const accountId = signedUp!.accountId;
    const refused = await operator.access.allow.mutate({ accountId }).catch((error: unknown) => error);
    expect((refused as { shape?: { data?: { appCode?: string } } }).shape?.data?.appCode).toBe('AGENTS_ACCOUNT_NOT_VERIFIED');
    await billing.identity.verifyEmail.mutate({ token: signedUp!.verificationToken! });
    expect(await operator.access.allow.mutate({ accountId })).toEqual({ accountId, allowed: true });
    // Revoking needs nothing verified, and an account that does not exist cannot be allowed.
    expect(await operator.access.allow.mutate({ accountId, allowed: false })).toEqual({ accountId, allowed: false });
    const unknown = await operator.access.allow.mutate({ accountId: 'acct_doesnotexist0000000000000000' }).catch((error: unknown) => error);
    expect((unknown as { shape?: { data?: { appCode?: string } } }).shape?.data?.appCode).toBe('ACCOUNT_NOT_FOUND');
  });
});

describe.skipIf(!hasRecorded || !hasSynthetic)('agent runs: the deterministic planner over HTTP', () => {
  let api: ApiCall;
  let headers: Record<string, string>;
  let run: { runId: string; sessionId: string };
  let compact: any;
  let balanceBefore: number;

  beforeAll(async () => {
    ({ api, headers } = await allowedUser('topic'));
    balanceBefore = (await accountOf(api)).balance;
    const admitted = await admit(api, { message: laryngealQuestion, route: { researchBreadth: 'standard', answerDetail: 'standard' } });
    expect(admitted).toMatchObject({
      runId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      userMessageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      agentMessageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      conversationTurn: 1,
      status: 'pending',
    });
    run = admitted;
    compact = await ended(api, run);
  });

  it('completes a topic question with an extractive, cited answer (compact by default, details omitted)', async () => {
    expect(compact).toMatchObject({
      status: 'completed',
      conversationTurn: 1,
      modelStepCount: 0,
      route: {
        route: 'topic_research',
        researchBreadth: 'standard',
        answerDetail: 'standard',
        useStoryboard: false,
        searchQuery: 'insert laryngeal mask airway',
      },
      result: { outcome: 'answered', intent: 'topic_research', confidence: expect.any(String) },
    });
    expect(compact.result.answer).toMatch(/^Extractive answer \(no language model is configured/);
    expect(compact.result.answer).toContain('laryngeal mask airway');
    // search + three transcripts (one of them has none: a failed call, still persisted and counted)
    expect(compact.toolCallCount).toBe(4);
    expect(compact.result.warnings).toContainEqual({ code: 'TRANSCRIPT_UNAVAILABLE', message: expect.stringContaining('coldBrew001') });
    expect(compact.result.sources).toEqual([
      expect.objectContaining({ id: 'src_1', type: 'video', provider: 'youtube', videoId: 'rCAS2eD-mcw', url: expect.any(String) }),
    ]);
    for (const absent of ['evidence', 'artifacts']) expect(compact.result).not.toHaveProperty(absent);
    for (const absent of ['extractionDiagnostics', 'extractionDiagnosticsTruncated', 'transcriptDiagnostics'])
      expect(compact).not.toHaveProperty(absent);
  });

  it('charges the tool calls once, settling the rest of the budget back', async () => {
    const after = (await accountOf(api)).balance;
    expect(compact.billing.creditsCharged).toBeGreaterThan(0);
    expect(balanceBefore - after).toBe(compact.billing.creditsCharged);
    expect(compact.billing.creditsRemaining).toBe(after);
  });

  it('lists evidence whose citations resolve: a source of the result, a fetched video, inside the transcript window', async () => {
    const withEvidence = await api('GET', `${runPathOf(run)}?details=evidence`);
    expect(withEvidence.status, withEvidence.text).toBe(200);
    const { evidence, sources } = withEvidence.body.result;
    expect(evidence.length).toBeGreaterThanOrEqual(2);
    const transcript = await api('GET', '/v1/providers/youtube/videos/rCAS2eD-mcw/transcript?detail=segments');
    const segments = transcript.body.segments as { startMs: number; endMs: number }[];
    for (const item of evidence) {
      expect(sources.map((source: { id: string }) => source.id)).toContain(item.sourceId);
      expect(item.endMs).toBeGreaterThanOrEqual(item.startMs);
      // The cited range starts on a caption line and ends on one: it is a window of the real transcript.
      expect(segments.some((segment) => segment.startMs === item.startMs)).toBe(true);
      expect(segments.some((segment) => segment.endMs === item.endMs)).toBe(true);
    }
    expect(evidence[0].excerpt).toContain('inserting a laryngeal mask airway');
    expect(withEvidence.body.result).not.toHaveProperty('artifacts');
  });

  it('adds artifacts and diagnostics when asked, in any order and with repeats', async () => {
    const detailed = await api('GET', `${runPathOf(run)}?responseFormat=compact&details=diagnostics,artifacts,artifacts`);
    expect(detailed.status, detailed.text).toBe(200);
    expect(detailed.body).toMatchObject({ extractionDiagnostics: [], extractionDiagnosticsTruncated: false, transcriptDiagnostics: [] });
    expect(detailed.body.result.artifacts).toEqual([
      {
        type: 'video_list',
        title: 'Videos considered',
        data: { videos: expect.arrayContaining([expect.objectContaining({ id: 'rCAS2eD-mcw' })]) },
      },
    ]);
    expect(detailed.body.result).not.toHaveProperty('evidence');
  });

  it('answers the legacy layout: citations carrying excerpt, times, title and url; billing inside the result', async () => {
    const legacy = await api('GET', `${runPathOf(run)}?responseFormat=legacy`);
    expect(legacy.status, legacy.text).toBe(200);
    const { result } = legacy.body;
    expect(result).toMatchObject({
      runId: run.runId,
      sessionId: run.sessionId,
      intent: 'topic_research',
      billing: compact.billing,
      artifacts: expect.any(Array),
    });
    expect(result).not.toHaveProperty('outcome');
    expect(result).not.toHaveProperty('sources');
    expect(legacy.body).toMatchObject({ extractionDiagnostics: [], extractionDiagnosticsTruncated: false, transcriptDiagnostics: [] });
    for (const citation of result.citations) {
      expect(citation).toMatchObject({
        id: expect.stringMatching(/^cit_/),
        sourceId: 'src_1',
        provider: 'youtube',
        videoId: 'rCAS2eD-mcw',
        excerpt: expect.any(String),
        title: expect.any(String),
        url: expect.stringMatching(/^https:\/\/www\.youtube\.com\/watch\?v=rCAS2eD-mcw&t=\d+s$/),
        startMs: expect.any(Number),
        endMs: expect.any(Number),
      });
      expect(citation).not.toHaveProperty('window');
    }
  });

  it('answers 422 for details with legacy, unknown or too long details, and malformed ids', async () => {
    const cases: [string, string][] = [
      ['?responseFormat=legacy&details=evidence', 'DETAILS_REQUIRE_COMPACT'],
      ['?details=evidence,sources', 'DETAILS_INVALID'],
      [`?details=${'evidence,'.repeat(12)}evidence`, 'DETAILS_INVALID'],
      ['?responseFormat=verbose', 'VALIDATION_FAILED'],
    ];
    for (const [query, code] of cases) {
      const response = await api('GET', `${runPathOf(run)}${query}`);
      expect(response.status, `${query}: ${response.text}`).toBe(422);
      expect(response.body.error.code, query).toBe(code);
    }
    expect((await api('GET', `/v1/agent/not-a-uuid/runs/${run.runId}`)).status).toBe(422);
    expect((await api('POST', '/v1/agent/runs', { json: { message: '' } })).status).toBe(422);
    expect((await api('POST', '/v1/agent/runs', { json: { message: 'x'.repeat(4001) } })).status).toBe(422);
    expect((await api('POST', '/v1/agent/runs', { json: { message: 'ok', route: { researchBreadth: 'huge' } } })).status).toBe(422);
  });

  it("answers 404 for another account's run, an unknown run, and a run under another session", async () => {
    const { api: stranger } = await allowedUser('stranger');
    for (const [who, path] of [
      [stranger, runPathOf(run)],
      [api, runPathOf({ sessionId: run.sessionId, runId: randomUUID() })],
      [api, runPathOf({ sessionId: randomUUID(), runId: run.runId })],
    ] as const) {
      const response = await who('GET', path);
      expect(response.status, response.text).toBe(404);
      expect(response.body.error.code).toBe('AGENT_RUN_NOT_FOUND');
    }
    expect((await stranger('GET', `/v1/agent/${run.sessionId}/runs`)).body.error.code).toBe('AGENT_SESSION_NOT_FOUND');
    expect((await stranger('POST', '/v1/agent/runs', { json: { message: 'more', sessionId: run.sessionId } })).status).toBe(404);
  });

  it('replays the run’s events as Server-Sent Events and ends the stream with the run', async () => {
    const response = await fetch(`${gatewayUrl}${runPathOf(run)}/events`, { headers });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readEventStream(response);
    expect(events.map((event) => event.id)).toEqual(events.map((_, i) => i + 1));
    expect(events.slice(0, 2).map((event) => [event.event, event.data.status])).toEqual([
      ['status', 'pending'],
      ['status', 'running'],
    ]);
    expect(events[2]).toMatchObject({ event: 'step', data: { kind: 'classification', route: { route: 'topic_research' } } });
    const toolSteps = events.filter((event) => event.event === 'step' && event.data.kind === 'tool_call');
    expect(toolSteps.map((event) => event.data.tool).sort()).toEqual([
      'get_transcript',
      'get_transcript',
      'get_transcript',
      'search_videos',
    ]);
    expect(toolSteps.reduce((sum, event) => sum + event.data.credits, 0)).toBe(compact.billing.creditsCharged);
    expect(events.at(-1)).toMatchObject({ event: 'status', data: { status: 'completed', outcome: 'answered' } });
    // Reconnecting with Last-Event-ID resumes after that event.
    const resumed = await readEventStream(
      await fetch(`${gatewayUrl}${runPathOf(run)}/events`, { headers: { ...headers, 'last-event-id': String(events.length - 1) } }),
    );
    expect(resumed.map((event) => event.id)).toEqual([events.length]);
    const foreign = await fetch(`${gatewayUrl}${runPathOf(run)}/events`, { headers: { 'x-demo-user': `agents-other-${randomUUID()}` } });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as any).error.code).toBe('AGENT_RUN_NOT_FOUND');
  });
});

describe('agent runs: sessions, turns, idempotency, cancellation', () => {
  it('admits the next turn of a session, refusing a second run while the first is active (409 AGENT_RUN_IN_PROGRESS)', async () => {
    const { api } = await allowedUser('turns');
    const first = await slowRun(api, 1_500);
    const busy = await api('POST', '/v1/agent/runs', { json: { message: 'laryngeal mask sizes', sessionId: first.sessionId } });
    expect(busy.status, busy.text).toBe(409);
    expect(busy.body.error).toMatchObject({ code: 'AGENT_RUN_IN_PROGRESS', details: { activeRunId: first.runId } });
    const firstEnded = await ended(api, first);
    expect(firstEnded.result).toMatchObject({ outcome: 'insufficient_evidence', confidence: 'none', sources: [] });
    expect(firstEnded.result.warnings).toContainEqual(expect.objectContaining({ code: 'SEARCH_FAILED' }));
    const second = await admit(api, { message: 'tell me more', sessionId: first.sessionId });
    expect(second).toMatchObject({ sessionId: first.sessionId, conversationTurn: 2 });
    const secondEnded = await ended(api, second);
    // A follow-up without a topic of its own takes the previous turn's.
    expect(secondEnded.route.searchQuery).toBe(firstEnded.route.searchQuery);
    const page1 = await api('GET', `/v1/agent/${first.sessionId}/runs?limit=1`);
    expect(page1.status, page1.text).toBe(200);
    expect(page1.body).toMatchObject({
      hasMore: true,
      nextCursor: expect.any(String),
      data: [{ runId: second.runId, conversationTurn: 2 }],
    });
    const page2 = await api('GET', `/v1/agent/${first.sessionId}/runs?limit=1&cursor=${page1.body.nextCursor}`);
    expect(page2.body).toMatchObject({ hasMore: false, nextCursor: null, data: [{ runId: first.runId, conversationTurn: 1 }] });
    expect(page2.body.data[0].result).not.toHaveProperty('evidence');
    const badCursor = await api('GET', `/v1/agent/${first.sessionId}/runs?cursor=${randomUUID()}`);
    expect(badCursor.status).toBe(422);
    expect(badCursor.body.error.code).toBe('INVALID_CURSOR');
  });

  it('replays an Idempotency-Key: the same request answers the same run once; another request with it is 422', async () => {
    const { api } = await allowedUser('idempotent');
    const key = { 'idempotency-key': `agent-${randomUUID()}` };
    const first = await admit(api, { message: 'hi there' }, key);
    const again = await admit(api, { message: 'hi there' }, key);
    expect(again).toEqual(first);
    const reused = await api('POST', '/v1/agent/runs', { json: { message: 'something else' }, headers: key });
    expect(reused.status, reused.text).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const done = await ended(api, first);
    expect(done.result).toMatchObject({ outcome: 'needs_clarification', intent: 'clarification', sources: [] });
    expect(done.toolCallCount).toBe(0);
    expect(done.billing.creditsCharged).toBe(0);
    const listed = await api('GET', `/v1/agent/${first.sessionId}/runs`);
    expect(listed.body.data).toHaveLength(1);
  });

  it('cancels a running run (charged only what it completed); a cancelled run answers again; a completed one is 409', async () => {
    const { api, headers } = await allowedUser('cancel');
    const { balance } = await accountOf(api);
    const run = await slowRun(api, 3_000);
    await eventually(async () => ((await api('GET', runPathOf(run))).body.status === 'running' ? true : undefined), {
      what: 'the run to start',
    });
    // Follow the stream while the run is live: it must end with the cancellation.
    const streamed = fetch(`${gatewayUrl}${runPathOf(run)}/events`, { headers }).then(readEventStream);
    const cancelled = await api('POST', `${runPathOf(run)}/cancel`, { json: {} });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ runId: run.runId, status: 'cancelled', billing: { creditsCharged: 0 } });
    expect((await api('POST', `${runPathOf(run)}/cancel`, { json: {} })).body.status).toBe('cancelled');
    expect((await streamed).at(-1)).toMatchObject({ event: 'status', data: { status: 'cancelled' } });
    // The session is free at once for the next turn, and the hold came back in full.
    const next = await admit(api, { message: 'hello', sessionId: run.sessionId });
    const done = await ended(api, next);
    expect(done.status).toBe('completed');
    const notCancellable = await api('POST', `${runPathOf(next)}/cancel`, { json: {} });
    expect(notCancellable.status, notCancellable.text).toBe(409);
    expect(notCancellable.body.error.code).toBe('AGENT_RUN_NOT_CANCELLABLE');
    expect((await accountOf(api)).balance).toBe(balance);
    expect((await api('POST', `${runPathOf({ sessionId: run.sessionId, runId: randomUUID() })}/cancel`, { json: {} })).status).toBe(404);
  });
});

describe.skipIf(!hasRecorded || !hasSynthetic)('agent runs: the other routes', () => {
  it('answers a question about one named video from its transcript, and rejects a request to act', async () => {
    const { api } = await allowedUser('routes');
    const video = await admit(api, { message: 'In https://www.youtube.com/watch?v=rCAS2eD-mcw how is the cuff checked before insertion?' });
    const answered = await ended(api, video, '?details=evidence');
    expect(answered.route.route).toBe('video_question');
    expect(answered.result.intent).toBe('video_question');
    expect(['answered', 'partial']).toContain(answered.result.outcome);
    expect(answered.result.evidence[0].excerpt).toContain('Check the cuff');
    expect(answered.result.sources).toEqual([expect.objectContaining({ videoId: 'rCAS2eD-mcw', title: expect.any(String) })]);
    const rejected = await ended(api, await admit(api, { message: 'Delete all the comments on my channel', sessionId: video.sessionId }));
    expect(rejected.result).toMatchObject({ outcome: 'rejected', intent: 'out_of_scope', confidence: 'none' });
    expect(rejected.toolCallCount).toBe(0);
  });
});

describe('agent runs: the OpenAPI document', () => {
  it('lists every Agents operation with its errors, the admission as 202 and the event stream as text/event-stream', async () => {
    const doc = (await apiClient(gatewayUrl)('GET', '/v1/openapi.json')).body;
    const operations = [
      ['/agent/runs', 'post', 'createAgentRun', ['202', '401', '402', '403', '404', '409', '422', '429', '500', '503']],
      ['/agent/{sessionId}/runs', 'get', 'listAgentRuns', ['200', '401', '403', '404', '422', '429', '500', '503']],
      ['/agent/{sessionId}/runs/{runId}', 'get', 'getAgentRun', ['200', '401', '403', '404', '422', '429', '500', '503']],
      ['/agent/{sessionId}/runs/{runId}/cancel', 'post', 'cancelAgentRun', ['200', '401', '403', '404', '409', '422', '429', '500', '503']],
      ['/agent/{sessionId}/runs/{runId}/events', 'get', 'streamAgentRunEvents', ['200', '401', '403', '404', '422', '429', '500', '503']],
    ] as const;
    for (const [path, method, operationId, statuses] of operations) {
      const operation = doc.paths[path]?.[method];
      expect(operation, path).toMatchObject({ operationId, tags: ['Agents'] });
      expect(Object.keys(operation.responses).sort(), operationId).toEqual([...statuses].sort());
    }
    const get = doc.paths['/agent/{sessionId}/runs/{runId}'].get;
    expect(get.parameters.find((p: { name: string }) => p.name === 'details')).toMatchObject({ in: 'query', schema: { maxLength: 100 } });
    expect(get.parameters.find((p: { name: string }) => p.name === 'responseFormat').schema).toMatchObject({ enum: ['compact', 'legacy'] });
    expect(doc.paths['/agent/runs'].post.parameters.some((p: { name: string }) => p.name === 'Idempotency-Key')).toBe(true);
    expect(Object.keys(doc.paths['/agent/{sessionId}/runs/{runId}/events'].get.responses['200'].content)).toEqual(['text/event-stream']);
  });
});
