import http from 'node:http';
import express, { type Express } from 'express';

/**
 * Server options under which requests and responses are born Express's: instances of classes whose
 * prototypes hold Express's request and response methods and the app, and which become the app's
 * `request` and `response`. Express sets the prototype of every request and response it handles
 * (`Object.setPrototypeOf`), which is costly (ADR 0061); born with that prototype, the call changes nothing.
 */
export function expressServerOptions(app: Express): http.ServerOptions {
  class AppRequest extends http.IncomingMessage {}
  class AppResponse<Request extends http.IncomingMessage = http.IncomingMessage> extends http.ServerResponse<Request> {}
  Object.defineProperties(AppRequest.prototype, Object.getOwnPropertyDescriptors(express.request));
  Object.defineProperties(AppResponse.prototype, Object.getOwnPropertyDescriptors(express.response));
  // Where Express's own `app.request` and `app.response` keep it.
  for (const prototype of [AppRequest.prototype, AppResponse.prototype]) {
    Object.defineProperty(prototype, 'app', { value: app, configurable: true, enumerable: true, writable: true });
  }
  Object.assign(app, { request: AppRequest.prototype, response: AppResponse.prototype });
  return { IncomingMessage: AppRequest, ServerResponse: AppResponse };
}

/**
 * How long a client may take to send a request (ADR 0088): its headers within `headersTimeoutMs`,
 * all of it within `requestTimeoutMs`; past that Node answers 408 (in the envelope, see
 * client-errors.ts) and closes the connection, so slow senders cannot hold connections. Node looks
 * for expired requests every `connectionsCheckingInterval` (30 s by default, which would let one
 * live 40 s past a 10 s limit): a quarter of the headers timeout, at most a second.
 */
export function slowClientTimeouts(options: { headersTimeoutMs: number; requestTimeoutMs: number }): http.ServerOptions {
  return {
    headersTimeout: options.headersTimeoutMs,
    requestTimeout: options.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1_000, Math.ceil(options.headersTimeoutMs / 4)),
  };
}
