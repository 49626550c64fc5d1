import Type from 'typebox';
import { StringEnum } from './util.js';

/**
 * The one error type of Sledge. Every failure that reaches a user (REST body,
 * WebSocket frame, CLI message, job record) carries one of these codes.
 *
 * | code                          | HTTP | meaning                                              |
 * |-------------------------------|------|------------------------------------------------------|
 * | SLEDGE_E_VALIDATION           | 400  | a field is missing, of the wrong type or out of range |
 * | SLEDGE_E_UNKNOWN_ENGINE       | 400  | engine is not one Sledge knows                        |
 * | SLEDGE_E_NOT_FOUND            | 404  | job, profile or saved configuration does not exist    |
 * | SLEDGE_E_CONFLICT             | 409  | the request clashes with the current state            |
 * | SLEDGE_E_DRIVER_UNAVAILABLE   | 424  | the engine's client library does not load             |
 * | SLEDGE_E_CONNECT              | 422  | the database cannot be reached (host, port, socket)   |
 * | SLEDGE_E_AUTH                 | 422  | the database refused the credentials                  |
 * | SLEDGE_E_SCHEMA_MISSING       | 422  | the workload schema is not there (build it first)     |
 * | SLEDGE_E_SCHEMA_EXISTS        | 422  | a build would overwrite an existing schema            |
 * | SLEDGE_E_SCHEMA_INVALID       | 422  | checkschema found a failed check                      |
 * | SLEDGE_E_DB                   | 502  | the database returned an error while working          |
 * | SLEDGE_E_ABORTED              | 409  | the job was stopped by a user                         |
 * | SLEDGE_E_THRESHOLD_ABORT      | 422  | a run stopped early: a threshold marked :abort failed |
 * | SLEDGE_E_TIMEOUT              | 504  | an operation exceeded its deadline                    |
 * | SLEDGE_E_INTERRUPTED          | 500  | the server stopped while the job was running          |
 * | SLEDGE_E_UNAUTHORIZED         | 401  | missing or wrong API token                            |
 * | SLEDGE_E_FORBIDDEN            | 403  | another site's request, or a Host name not allowed    |
 * | SLEDGE_E_TOO_LARGE            | 413  | the request body is over the size or JSON depth limit |
 * | SLEDGE_E_INTERNAL             | 500  | a bug: the message is generic, details go to the log  |
 * | SLEDGE_E_STORAGE_FULL         | 507  | the data directory is full: the job store cannot grow |
 * | SLEDGE_E_STORAGE_IO           | 507  | the job store cannot be written (I/O error, size limit) |
 * | SLEDGE_E_SECRET_UNREADABLE    | 422  | a saved secret cannot be decrypted (key lost): re-enter it |
 */
export const ErrorCodes = {
  SLEDGE_E_VALIDATION: 400,
  SLEDGE_E_UNKNOWN_ENGINE: 400,
  SLEDGE_E_NOT_FOUND: 404,
  SLEDGE_E_CONFLICT: 409,
  SLEDGE_E_DRIVER_UNAVAILABLE: 424,
  SLEDGE_E_CONNECT: 422,
  SLEDGE_E_AUTH: 422,
  SLEDGE_E_SCHEMA_MISSING: 422,
  SLEDGE_E_SCHEMA_EXISTS: 422,
  SLEDGE_E_SCHEMA_INVALID: 422,
  SLEDGE_E_DB: 502,
  SLEDGE_E_ABORTED: 409,
  SLEDGE_E_THRESHOLD_ABORT: 422,
  SLEDGE_E_TIMEOUT: 504,
  SLEDGE_E_INTERRUPTED: 500,
  SLEDGE_E_UNAUTHORIZED: 401,
  SLEDGE_E_FORBIDDEN: 403,
  SLEDGE_E_TOO_LARGE: 413,
  SLEDGE_E_INTERNAL: 500,
  SLEDGE_E_STORAGE_FULL: 507,
  SLEDGE_E_STORAGE_IO: 507,
  SLEDGE_E_SECRET_UNREADABLE: 422,
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

export const ErrorCodeSchema = StringEnum(Object.keys(ErrorCodes) as ErrorCode[]);

/** One input field at fault and what is wrong with it. */
export const FieldError = Type.Object(
  { field: Type.String({ description: 'dotted path of the input field to fix' }), message: Type.String() },
  { $id: 'FieldError' },
);
export type FieldError = Type.Static<typeof FieldError>;

/** What a REST error body, a failed job and a WS error frame carry. */
export const ErrorInfo = Type.Object(
  {
    code: ErrorCodeSchema,
    message: Type.String(),
    field: Type.Optional(Type.String({ description: 'dotted path of the input field to fix' })),
    errors: Type.Optional(
      Type.Array(FieldError, { description: 'every field at fault when validation found more than one (the first is also in message and field)' }),
    ),
  },
  { $id: 'ErrorInfo' },
);
export type ErrorInfo = Type.Static<typeof ErrorInfo>;

export const ErrorBody = Type.Object({ error: ErrorInfo }, { $id: 'ErrorBody' });
export type ErrorBody = Type.Static<typeof ErrorBody>;

export class SledgeError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  /** Every field at fault, when validation found more than one. */
  readonly errors: readonly FieldError[] | undefined;

  constructor(code: ErrorCode, message: string, opts: { field?: string; cause?: unknown; errors?: readonly FieldError[] } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'SledgeError';
    this.code = code;
    this.field = opts.field;
    this.errors = opts.errors && opts.errors.length > 1 ? opts.errors : undefined;
  }

  /** One error for several field errors: the first gives code, message and field; all are listed. */
  static ofFields(code: ErrorCode, errors: readonly FieldError[]): SledgeError {
    const first = errors[0]!;
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more: ${errors.slice(1).map((e) => e.field).join(', ')})` : '';
    return new SledgeError(code, first.message + more, { field: first.field, errors });
  }

  get httpStatus(): number {
    return ErrorCodes[this.code];
  }

  toInfo(): ErrorInfo {
    const info: ErrorInfo = { code: this.code, message: this.message };
    if (this.field !== undefined) info.field = this.field;
    if (this.errors) info.errors = this.errors.map((e) => ({ ...e }));
    return info;
  }

  static is(e: unknown): e is SledgeError {
    return e instanceof SledgeError || (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'SledgeError' && typeof (e as { code?: unknown }).code === 'string');
  }

  /** Rebuild an error that crossed a thread or process boundary as plain data. */
  static fromInfo(info: ErrorInfo): SledgeError {
    return new SledgeError(info.code, info.message, { ...(info.field === undefined ? {} : { field: info.field }), ...(info.errors ? { errors: info.errors } : {}) });
  }
}

/**
 * Normalise anything thrown into a SledgeError. Unknown errors become
 * SLEDGE_E_INTERNAL with a generic message; the original stays as `cause`.
 */
export function toSledgeError(e: unknown, fallback: ErrorCode = 'SLEDGE_E_INTERNAL'): SledgeError {
  if (e instanceof SledgeError) return e;
  if (SledgeError.is(e)) {
    const x = e as unknown as ErrorInfo;
    return new SledgeError(x.code, x.message, { ...(x.field ? { field: x.field } : {}), cause: e });
  }
  const message = fallback === 'SLEDGE_E_INTERNAL' ? 'internal error' : e instanceof Error ? e.message : String(e);
  return new SledgeError(fallback, message, { cause: e });
}
