import { useState } from 'react';
import { downloadFile } from '../api/download.js';
import type { ApiError } from '../api/http.js';

/**
 * "Report": downloads a self-contained HTML report (it opens offline and can
 * be mailed). Fetched with the API token, then saved from a blob; a failure
 * goes to the page's error box through onError.
 */
export function ReportButton({ path, fileName, testId, title, onError, disabled = false }: { path: string; fileName: string; testId: string; title: string; onError: (e: ApiError | undefined) => void; disabled?: boolean }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      data-testid={testId}
      title={title}
      disabled={busy || disabled}
      onClick={async () => {
        setBusy(true);
        onError(undefined);
        try {
          await downloadFile(path, fileName);
        } catch (e) {
          onError(e as ApiError);
        } finally {
          setBusy(false);
        }
      }}
    >
      {busy ? 'Preparing report…' : 'Report'}
    </button>
  );
}
