export { ApiError, metaOf, type ApiErrorCode, type ClientErrorCode, type ResponseMeta } from './api-error';
export { createVrsClient, type ApiResult, type FetchResult, type VrsClient, type VrsClientOptions } from './client';
export { readEventStream, type StreamEvent } from './event-stream';
export type { components, operations, paths } from './generated/api';
