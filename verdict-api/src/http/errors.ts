// The one place errors become HTTP statuses and JSON error bodies.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorBody } from '../contract.js';
import { type ErrorCode, VerdictApiError } from '../errors/errors.js';
import type { Logger } from '../log/logger.js';

const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  STORAGE_UNAVAILABLE: 503,
  STORAGE_ERROR: 500,
  CONFIG_INVALID: 500,
};

export function errorResponse(c: Context, error: unknown, log: Logger) {
  if (error instanceof VerdictApiError) {
    const status = STATUS[error.code];
    if (status >= 500) log.error({ err: error, code: error.code }, 'request failed');
    else log.info({ code: error.code, field: error.field }, error.message);
    const message =
      error.code === 'STORAGE_UNAVAILABLE' ? 'storage unavailable: ClickHouse cannot be reached right now; retry later' : error.code === 'STORAGE_ERROR' ? 'storage error' : error.message;
    const body: ErrorBody = { error: { code: error.code, message, ...(error.field ? { field: error.field } : {}) } };
    if (status === 503) c.header('Retry-After', '5');
    if (status === 429) c.header('Retry-After', String(error.retryAfterSeconds ?? 1));
    return c.json(body, status);
  }
  log.error({ err: error }, 'unexpected error');
  const body: ErrorBody = { error: { code: 'INTERNAL', message: 'internal error' } };
  return c.json(body, 500);
}
