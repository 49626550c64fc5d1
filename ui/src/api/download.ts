import { API, ApiError, getToken } from './http.js';

/** The file name in a Content-Disposition header (attachment; filename="x"), if any. */
export function dispositionName(header: string | null): string | undefined {
  const m = header ? /filename="([^"]+)"/.exec(header) : null;
  return m?.[1];
}

/**
 * Download a file from the API with the bearer token in the header (a plain
 * link could not carry it): fetch it as a blob and save it under the name the
 * server gives. Rejects with an ApiError carrying the server's message.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<string> {
  const token = getToken();
  let res: Response;
  try {
    res = await fetch(API + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch (e) {
    throw new ApiError('SLEDGE_UI_NETWORK', `cannot reach the Sledge server (${e instanceof Error ? e.message : String(e)})`, 0);
  }
  if (!res.ok) {
    let body: { error?: { code?: string; message?: string; field?: string } } | undefined;
    try {
      body = (await res.json()) as typeof body;
    } catch {
      body = undefined;
    }
    const e = body?.error;
    if (e?.code && e.message) throw new ApiError(e.code as ApiError['code'], e.message, res.status, e.field);
    throw new ApiError('SLEDGE_UI_BAD_RESPONSE', `the server answered ${res.status}`, res.status);
  }
  const name = dispositionName(res.headers.get('content-disposition')) ?? fallbackName;
  const url = URL.createObjectURL(await res.blob());
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } finally {
    // Revoked after the click has handed the blob to the download.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return name;
}

/** A job's HTML report. */
export const reportPath = (id: string) => `/jobs/${encodeURIComponent(id)}/report`;
/** A comparison's HTML report (2..8 jobs, the first is the base). */
export const compareReportPath = (ids: readonly string[]) => `/compare/report?jobs=${ids.map(encodeURIComponent).join(',')}`;
