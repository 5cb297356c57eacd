import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { AppError, newRequestId, type Logger } from '@vrs/kit';
import { envelopeOf } from '../errors/envelope';

/** What Node's parser rejected, in our codes: an over-long request line or headers, a request not sent in time, or anything else malformed. */
function appErrorOf(error: NodeJS.ErrnoException): AppError {
  if (error.code === 'HPE_HEADER_OVERFLOW') return new AppError('HEADERS_TOO_LARGE');
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new AppError('REQUEST_TIMEOUT');
  if (error.code === 'HPE_INVALID_METHOD') return new AppError('MALFORMED_REQUEST', 'The request method is not a valid HTTP token.');
  return new AppError('MALFORMED_REQUEST');
}

/**
 * Requests Node's HTTP parser refuses never reach Express, so Node would answer them itself with a
 * bare status line (or reset the socket). This writes the error envelope instead, with a request id
 * of its own, and closes the connection — when the socket can still take it and no response is
 * already under way on it.
 */
export function answerClientErrorsInEnvelope(server: Server, logger: Logger): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const appError = appErrorOf(error);
    const requestId = newRequestId();
    logger.info({ requestId, code: error.code, status: appError.status }, 'request refused by the HTTP parser');
    const body = JSON.stringify(envelopeOf(appError, requestId));
    socket.end(
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
