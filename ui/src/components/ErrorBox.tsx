import type { ErrorInfo } from '@sledge/protocol';
import type { ApiError } from '../api/http.js';

/** An API error that no field on the page owns (or a job's stored error). */
export function ErrorBox({ error, title }: { error: ApiError | ErrorInfo | undefined | null; title?: string }) {
  if (!error) return null;
  return (
    <div className="error-box" role="alert">
      {title && <strong>{title}: </strong>}
      <span>{error.message}</span>
      <span className="muted">
        {' '}
        ({error.code}
        {error.field ? `, field ${error.field}` : ''})
      </span>
    </div>
  );
}
