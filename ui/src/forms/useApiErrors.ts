import { useCallback, useState } from 'react';
import { ApiError } from '../api/http.js';
import { fieldKeyFor } from './fields.js';

export interface ApiErrors {
  /** Error text per form key shown on this page. */
  fields: Record<string, string>;
  /** An error no field on this page owns. */
  general: ApiError | undefined;
  /** Route an error to its field (when one of `keys`) or to the general slot. */
  show: (e: unknown, keys: readonly string[]) => void;
  clear: (key?: string) => void;
}

/** API errors placed at the field they concern. */
export function useApiErrors(): ApiErrors {
  const [fields, setFields] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<ApiError>();
  const show = useCallback((e: unknown, keys: readonly string[]) => {
    const err = e instanceof ApiError ? e : new ApiError('SLEDGE_E_INTERNAL', e instanceof Error ? e.message : String(e), 0);
    const key = fieldKeyFor(err.field, keys);
    if (key) {
      setFields({ [key]: err.message });
      setGeneral(undefined);
    } else {
      setFields({});
      setGeneral(err);
    }
  }, []);
  const clear = useCallback((key?: string) => {
    if (key === undefined) {
      setFields({});
      setGeneral(undefined);
    } else {
      setFields((f) => {
        if (!(key in f)) return f;
        const { [key]: _drop, ...rest } = f;
        return rest;
      });
    }
  }, []);
  return { fields, general, show, clear };
}
