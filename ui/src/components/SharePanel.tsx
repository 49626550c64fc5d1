import { useCallback, useEffect, useState } from 'react';
import type { ShareInfo } from '@sledge/protocol';
import { api } from '../api/endpoints.js';
import type { ApiError } from '../api/http.js';
import { localDateTime } from '../util/format.js';
import { ErrorBox } from './ErrorBox.js';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A job's read-only share links: the ones it has (each with copy and
 * revoke), and a new one only when asked. Anyone with a link sees the job
 * (never its secrets) until it is revoked.
 */
export function SharePanel({ jobId }: { jobId: string }) {
  const [links, setLinks] = useState<ShareInfo[]>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<string>();
  const [note, setNote] = useState<string>();
  const url = (s: Pick<ShareInfo, 'path'>) => location.origin + s.path;

  const reload = useCallback(async () => {
    try {
      setLinks(await api.shares(jobId));
      setError(undefined);
    } catch (e) {
      setError(e as ApiError);
    }
  }, [jobId]);
  useEffect(() => {
    void reload();
  }, [reload]);

  const create = async () => {
    setBusy(true);
    setNote(undefined);
    try {
      const s = await api.share(jobId);
      setCreated(s.token);
      await reload();
      setNote((await copyText(url(s))) ? 'New share link created and copied.' : 'New share link created: copy it below.');
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (token: string) => {
    setBusy(true);
    setNote(undefined);
    try {
      await api.revokeShare(jobId, token);
      if (created === token) setCreated(undefined);
      await reload();
      setNote('Share link revoked: it no longer opens the job.');
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card share-panel" aria-labelledby="share-h" data-testid="share-panel">
      <h3 id="share-h">Read-only share links</h3>
      <p className="help">Anyone with a link sees this job as it is stored (never its secrets) until the link is revoked.</p>
      {links === undefined && !error && <p className="muted small">Loading…</p>}
      {links && links.length === 0 && (
        <p className="muted" data-testid="share-none">
          This job has no share link yet.
        </p>
      )}
      {links && links.length > 0 && (
        <table className="data compact" data-testid="share-list">
          <thead>
            <tr>
              <th scope="col">Link</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {links.map((s) => (
              <tr key={s.token} data-token={s.token} className={s.token === created ? 'selected' : undefined} data-testid="share-row">
                <td>
                  <input
                    readOnly
                    className="mono"
                    value={url(s)}
                    onFocus={(e) => e.currentTarget.select()}
                    size={Math.min(70, url(s).length)}
                    aria-label="Share link"
                    data-testid={s.token === created ? 'share-url' : `share-url-${s.token}`}
                  />
                </td>
                <td className="muted">{localDateTime(s.createdAt)}</td>
                <td className="row-actions">
                  <button type="button" className="small" onClick={async () => setNote((await copyText(url(s))) ? 'Share link copied.' : 'Select the link and copy it.')} data-testid={`share-copy-${s.token}`}>
                    Copy
                  </button>{' '}
                  <button type="button" className="small danger-text" disabled={busy} onClick={() => void revoke(s.token)} data-testid={`share-revoke-${s.token}`}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void create()} data-testid="share-create">
          {links && links.length > 0 ? 'Create another link' : 'Create a share link'}
        </button>
        {note && (
          <span className="good" role="status" data-testid="share-note">
            {note}
          </span>
        )}
      </div>
      <ErrorBox error={error} />
    </section>
  );
}
