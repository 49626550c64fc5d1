import type { CheckItem } from '@sledge/protocol';

/** checkschema results: one line per check with a tick or a cross. */
export function CheckList({ items }: { items: readonly CheckItem[] }) {
  if (!items.length) return <p className="muted">No check results.</p>;
  const failed = items.filter((i) => !i.ok).length;
  return (
    <section aria-label="Schema check" data-testid="check-list">
      <p className={failed ? 'bad' : 'good'}>{failed ? `${failed} of ${items.length} checks failed` : `All ${items.length} checks passed`}</p>
      <ul className="checks">
        {items.map((i) => (
          <li key={i.name} className={i.ok ? 'ok' : 'fail'}>
            <span aria-hidden="true">{i.ok ? '✓' : '✗'}</span> <strong>{i.name}</strong> <span className="muted">{i.detail}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
