import type { FieldSpec, FormValue } from '../forms/fields.js';

export interface FieldProps {
  spec: FieldSpec;
  /** Form key, e.g. `target.port`: used for ids and to match API errors. */
  fieldKey: string;
  value: FormValue | undefined;
  onChange: (v: FormValue) => void;
  error?: string | undefined;
  disabled?: boolean;
  /** Shown under the input (e.g. "stored on the server"). */
  hint?: string | undefined;
}

const idFor = (key: string) => 'f-' + key.replace(/[^A-Za-z0-9_-]/g, '-');

/** One labelled input generated from a schema field; the API's error for it appears right below. */
export function Field({ spec, fieldKey, value, onChange, error, disabled, hint }: FieldProps) {
  const id = idFor(fieldKey);
  const errId = `${id}-error`;
  const helpId = `${id}-help`;
  const describedBy = [error ? errId : '', spec.description || hint ? helpId : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: fieldKey,
    disabled,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'data-field': fieldKey,
  } as const;
  let input;
  if (spec.kind === 'boolean') {
    return (
      <div className={`field field-check${error ? ' has-error' : ''}`}>
        <label htmlFor={id}>
          <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          <span>{spec.title}</span>
        </label>
        {(spec.description || hint) && (
          <p className="help" id={helpId}>
            {hint ?? spec.description}
          </p>
        )}
        {error && (
          <p className="field-error" id={errId} role="alert">
            {error}
          </p>
        )}
      </div>
    );
  }
  if (spec.kind === 'enum') {
    input = (
      <select {...common} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)}>
        {(spec.options ?? []).map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else if (spec.kind === 'integer' || spec.kind === 'number') {
    input = (
      <input
        {...common}
        type="text"
        inputMode={spec.kind === 'integer' ? 'numeric' : 'decimal'}
        autoComplete="off"
        value={String(value ?? '')}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  } else {
    input = (
      <input
        {...common}
        type={spec.secret ? 'password' : 'text'}
        autoComplete={spec.secret ? 'new-password' : 'off'}
        spellCheck={false}
        value={String(value ?? '')}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  const range = spec.minimum !== undefined || spec.maximum !== undefined ? `${spec.minimum ?? ''}–${spec.maximum ?? ''}` : '';
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>
        {spec.title}
        {range && <span className="range"> ({range})</span>}
      </label>
      {input}
      {(spec.description || hint) && (
        <p className="help" id={helpId}>
          {hint ?? spec.description}
        </p>
      )}
      {error && (
        <p className="field-error" id={errId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
