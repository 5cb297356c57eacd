import http from 'node:http';
import express, { type Express } from 'express';

/**
 * Server options under which requests and responses are born Express's: instances of classes whose
 * prototypes hold Express's request and response methods and the app, and which become the app's
 * `request` and `response`. Express sets the prototype of every request and response it handles
 * (`Object.setPrototypeOf`). On Node 20 that alone halved a bare server's throughput, and V8 promoted
 * about 9 KB of every request to the old generation, a full collection every quarter second under
 * load (ADR 0061). Born with that prototype, Express's call changes nothing.
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
