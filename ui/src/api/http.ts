import type { ErrorBody, ErrorCode, FieldError } from '@sledge/protocol';

/** Codes the UI adds for failures that never reached the server's error handler. */
export type UiErrorCode = ErrorCode | 'SLEDGE_UI_NETWORK' | 'SLEDGE_UI_BAD_RESPONSE';

/**
 * An error from the REST API, carrying the field it concerns (dotted path, e.g.
 * `tprocc.warehouses`) and, when validation found several, every field at fault.
 */
export class ApiError extends Error {
  constructor(
    readonly code: UiErrorCode,
    message: string,
    readonly status: number,
    readonly field?: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const TOKEN_KEY = 'sledge.token';

/** The optional API token (servers started with SLEDGE_TOKEN need it). */
export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string | null): void {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

/** Append the token as a query parameter (download links and the WebSocket cannot send headers). */
export function withToken(url: string): string {
  const t = getToken();
  if (!t) return url;
  return url + (url.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(t);
}

function isErrorBody(x: unknown): x is ErrorBody {
  if (typeof x !== 'object' || x === null) return false;
  const e = (x as { error?: unknown }).error;
  return typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string';
}

export const API = '/api/v1';

/** One REST call. Resolves with the parsed JSON body (undefined for 204), rejects with an ApiError. */
export async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = getToken();
  if (token) headers['authorization'] = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(API + path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  } catch (e) {
    throw new ApiError('SLEDGE_UI_NETWORK', `cannot reach the Sledge server (${e instanceof Error ? e.message : String(e)})`, 0);
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiError('SLEDGE_UI_BAD_RESPONSE', `the server answered ${res.status} with a body that is not JSON`, res.status);
  }
  if (!res.ok) {
    if (isErrorBody(parsed)) throw new ApiError(parsed.error.code, parsed.error.message, res.status, parsed.error.field, parsed.error.errors);
    throw new ApiError('SLEDGE_UI_BAD_RESPONSE', `the server answered ${res.status}`, res.status);
  }
  return parsed as T;
}

/** Build a query string from defined, non-empty values. */
export function qs(params: Record<string, string | number | boolean | undefined | null>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}
