// The service's few error classes. Each has a stable `code`; only the HTTP layer and the
// command entry point map them to statuses and exit codes.

export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'TOO_MANY_REQUESTS'
  | 'STORAGE_UNAVAILABLE'
  | 'STORAGE_ERROR'
  | 'CONFIG_INVALID';

/** Base class: every error the service raises on purpose. */
export class VerdictApiError extends Error {
  /** With TOO_MANY_REQUESTS: when to try again (the Retry-After header). */
  retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The request is malformed; `field` names the offending part (e.g. `testCases[3].name`). */
export class BadRequestError extends VerdictApiError {
  constructor(message: string, field?: string) {
    super('BAD_REQUEST', message, field);
  }
}

/** ClickHouse cannot be reached (refused, timed out, closed): the caller may retry later. */
export class StorageUnavailableError extends VerdictApiError {
  constructor(message: string, options?: ErrorOptions) {
    super('STORAGE_UNAVAILABLE', message, undefined, options);
  }
}

/** ClickHouse answered with an error: a bug or a schema problem, not a transient fault. */
export class StorageError extends VerdictApiError {
  constructor(message: string, options?: ErrorOptions) {
    super('STORAGE_ERROR', message, undefined, options);
  }
}
