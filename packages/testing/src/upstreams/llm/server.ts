import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, sendJson } from '../http-helpers';
import { behaviours, isBehaviour, type Behaviour } from './behaviours';
import { answerModeOf, chatCompletion, imagesOf, textOf, type AnswerMode, type ChatRequest, type ReceivedImage } from './chat-completion';

export interface FakeLlmOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** 127.0.0.1 by default; 0.0.0.0 to serve other containers. */
  host?: string;
  /** Every answer waits this long first (benches model a real model's latency); settable later too. */
  latencyMs?: number;
}

/** One chat-completions request as the fake received it, for assertions on what each model was asked. */
export interface RecordedRequest {
  model: string;
  behaviour: Behaviour;
  mode: AnswerMode;
  system: string;
  prompt: string;
  /** The bearer token sent, if any. */
  apiKey: string | null;
  /** The image parts of the user messages (storyboard sheets), decoded. */
  images: ReceivedImage[];
  body: ChatRequest;
  /** What the fake answered (200s only): the tool calls it asked for, and its text. */
  answer?: { toolCalls: Array<{ name: string; arguments: string }>; text: string | null };
}

export interface FakeLlm {
  /** The server root (control API under `/__control/`). */
  url: string;
  /** What `LLM_BASE_URL` should be: `<url>/v1`. */
  baseUrl: string;
  port: number;
  close(): Promise<void>;
  /** How `model` answers from now on; model `*` sets the default for models without their own. */
  setBehaviour(model: string, behaviour: Behaviour): void;
  /** How long every answer waits before it is sent (0: at once). */
  setLatency(latencyMs: number): void;
  /** Every model back to `ok`, the request log emptied, held (`timeout`) requests dropped. */
  reset(): void;
  requests(): RecordedRequest[];
}

// Models listed by GET /v1/models besides those the fake has been told about or asked.
const defaultModels = ['fake-primary', 'fake-fallback'];

// OpenAI's error shape, which the AI SDK parses into its APICallError.
function openAiError(res: ServerResponse, status: number, message: string, type: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { message, type, param: null, code: null } }, headers);
}

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const behaviourByModel = new Map<string, Behaviour>();
  const modelsSeen = new Set<string>();
  let log: RecordedRequest[] = [];
  const held = new Set<ServerResponse>();
  let sequence = 0;
  let latencyMs = options.latencyMs ?? 0;

  const behaviourOf = (model: string): Behaviour => behaviourByModel.get(model) ?? behaviourByModel.get('*') ?? 'ok';
  const dropHeld = () => {
    for (const res of held) res.destroy();
    held.clear();
  };
  const reset = () => {
    behaviourByModel.clear();
    latencyMs = options.latencyMs ?? 0;
    log = [];
    dropHeld();
  };

  async function control(req: IncomingMessage, res: ServerResponse, route: string): Promise<void> {
    if (req.method === 'POST' && route === 'behaviour') {
      const input = JSON.parse((await readBody(req)) || '{}') as { model?: unknown; behaviour?: unknown };
      if (typeof input.model !== 'string' || !isBehaviour(input.behaviour)) {
        return sendJson(res, 400, { error: `expected {model: string, behaviour: ${behaviours.join('|')}}` });
      }
      behaviourByModel.set(input.model, input.behaviour);
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && route === 'latency') {
      const input = JSON.parse((await readBody(req)) || '{}') as { latencyMs?: unknown };
      if (typeof input.latencyMs !== 'number' || !Number.isInteger(input.latencyMs) || input.latencyMs < 0) {
        return sendJson(res, 400, { error: 'expected {latencyMs: integer >= 0}' });
      }
      latencyMs = input.latencyMs;
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && route === 'reset') {
      reset();
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'GET' && route === 'requests') return sendJson(res, 200, log);
    sendJson(res, 404, { error: `unknown control route ${req.method} /__control/${route}` });
  }

  async function chat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let request: ChatRequest;
    try {
      request = JSON.parse(await readBody(req)) as ChatRequest;
    } catch (error) {
      return openAiError(res, 400, `invalid JSON body: ${(error as Error).message}`, 'invalid_request_error');
    }
    if (typeof request.model !== 'string' || !Array.isArray(request.messages)) {
      return openAiError(res, 400, 'model (string) and messages (array) are required', 'invalid_request_error');
    }
    if (request.stream) return openAiError(res, 400, 'the fake LLM does not stream', 'invalid_request_error');
    const behaviour = behaviourOf(request.model);
    modelsSeen.add(request.model);
    const authorization = req.headers.authorization;
    const recorded: RecordedRequest = {
      model: request.model,
      behaviour,
      mode: answerModeOf(request),
      system: textOf(request, 'system'),
      prompt: textOf(request, 'user'),
      apiKey: authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : null,
      images: imagesOf(request),
      body: request,
    };
    log.push(recorded);
    sequence += 1;
    const current = sequence;
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    if (behaviour === 'timeout') {
      // Never answered: the caller's timeout decides; reset() and close() drop the connection.
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    if (behaviour === 'fail') {
      // retry-after-ms as OpenAI sends it, so clients that retry do so at once instead of backing off for seconds.
      return openAiError(res, 500, `injected failure of model ${request.model}`, 'server_error', { 'retry-after-ms': '0' });
    }
    const completion = chatCompletion(request, behaviour, current);
    const message = completion.choices[0]!.message as {
      content: string | null;
      tool_calls?: Array<{ function: { name: string; arguments: string } }>;
    };
    recorded.answer = { toolCalls: (message.tool_calls ?? []).map(({ function: call }) => call), text: message.content };
    sendJson(res, 200, completion);
  }

  async function route(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (pathname.startsWith('/__control/')) return control(req, res, pathname.slice('/__control/'.length));
    if (req.method === 'POST' && pathname === '/v1/chat/completions') return chat(req, res);
    if (req.method === 'GET' && pathname === '/v1/models') {
      const ids = new Set([...defaultModels, ...behaviourByModel.keys(), ...modelsSeen].filter((model) => model !== '*'));
      return sendJson(res, 200, {
        object: 'list',
        data: [...ids].map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake-llm' })),
      });
    }
    openAiError(res, 404, `the fake LLM does not serve ${req.method} ${pathname}`, 'invalid_request_error');
  }

  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://fake.invalid');
    route(req, res, pathname).catch((error: Error) => {
      if (!res.headersSent) openAiError(res, 500, error.message, 'server_error');
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = !options.host || options.host === '0.0.0.0' ? '127.0.0.1' : options.host;
  const url = `http://${host}:${port}`;

  return {
    url,
    baseUrl: `${url}/v1`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        dropHeld();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
    setBehaviour: (model, behaviour) => void behaviourByModel.set(model, behaviour),
    setLatency: (ms) => {
      latencyMs = ms;
    },
    reset,
    requests: () => structuredClone(log),
  };
}
