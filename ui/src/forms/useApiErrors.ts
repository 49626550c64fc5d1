import { useCallback, useState } from 'react';
import type { ApiError } from '../api/http.js';
import { placeErrors, type FieldLabels } from './errors.js';

export interface ApiErrors {
  /** Error text per form key shown on this page. */
  fields: Record<string, string>;
  /** An error no field on this page owns. */
  general: ApiError | undefined;
  /**
   * Route every field error of `e` to its field (when one of `keys`), worded
   * with the fields' `labels`; the rest goes to the general slot.
   */
  show: (e: unknown, keys: readonly string[], labels?: FieldLabels) => void;
  clear: (key?: string) => void;
}

/** API errors placed at the fields they concern, all at once. */
export function useApiErrors(): ApiErrors {
  const [fields, setFields] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<ApiError>();
  const show = useCallback((e: unknown, keys: readonly string[], labels?: FieldLabels) => {
    const placed = placeErrors(e, keys, labels);
    setFields(placed.fields);
    setGeneral(placed.general);
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
