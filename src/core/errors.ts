// Errors that carry their own HTTP meaning. Core and service code throw these; the one error map
// in src/http/errors.ts turns them into `{"error": message, "code": code}` with `status`.
// Nothing maps errors by matching message strings.

export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the request is malformed or names something invalid. */
export class BadRequestError extends AppError {
  constructor(message: string, code = 'bad_request', details?: ErrorDetails) {
    super(400, code, message, details);
  }
}

/** 401: no usable credentials. The message says what was wrong without revealing any secret. */
export class UnauthenticatedError extends AppError {
  constructor(message: string, code = 'unauthenticated') {
    super(401, code, message);
  }
}

/** 403: credentials are good but not enough for this action. */
export class ForbiddenError extends AppError {
  constructor(message: string, code = 'forbidden') {
    super(403, code, message);
  }
}

/** 404: the resource does not exist, or exists in a workspace the caller may not see. */
export class NotFoundError extends AppError {
  constructor(message: string, code = 'not_found') {
    super(404, code, message);
  }
}

/** 409: the request clashes with existing state (for example a duplicate name). */
export class ConflictError extends AppError {
  constructor(message: string, code = 'conflict') {
    super(409, code, message);
  }
}

/** 429: a budget is spent; `retryAfterSeconds` becomes the Retry-After header. */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    code = 'rate_limited',
  ) {
    super(429, code, message);
  }
}

/** 412: an If-Match precondition does not hold: someone else changed the resource first. */
export class PreconditionFailedError extends AppError {
  constructor(message: string, code = 'precondition_failed') {
    super(412, code, message);
  }
}
