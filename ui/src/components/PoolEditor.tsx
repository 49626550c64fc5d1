import { useRef, useState, type ChangeEvent } from 'react';
import { parseConnectPoolXml, poolOverridableFields, POOL_POLICIES, SledgeError, workloadDef, type ConnectPool, type EngineId, type PoolPolicy } from '@sledge/protocol';
import { fieldsOf } from '../forms/fields.js';
import type { TargetJsonSchema } from '../api/endpoints.js';

/** The connection settings a pool row shows (those the engine has), in this order; the others stay the target's. */
const COLUMNS = ['host', 'port', 'socket', 'connectString', 'database', 'user', 'password', 'file'];

export interface PoolEditorProps {
  engine: EngineId;
  schema: TargetJsonSchema | undefined;
  /** The workload whose operations are routed (its id). */
  workload: string;
  pool: ConnectPool | undefined;
  onChange: (p: ConnectPool | undefined) => void;
  /** API errors by field key (target.pool.connections.0.port ...). */
  errors: Record<string, string>;
}

const nextName = (p: ConnectPool) => {
  for (let i = p.connections.length + 1; ; i++) if (!p.connections.some((c) => c.name === `c${i}`)) return `c${i}`;
};

/**
 * The target's connect pool (HammerDB's XML connect pool): connections that
 * override the target's host, port, database, user, password ..., and per
 * operation of the workload the connections it uses and how it picks one.
 * Imports a HammerDB <prefix>cpool.xml file, read in the browser (its
 * passwords go nowhere but this form).
 */
export function PoolEditor({ engine, schema, workload, pool, onChange, errors }: PoolEditorProps) {
  const [notes, setNotes] = useState<string[]>([]);
  const [importError, setImportError] = useState<string>();
  const file = useRef<HTMLInputElement>(null);
  const specs = fieldsOf(schema);
  const allowed = new Set(poolOverridableFields(engine));
  const cols = COLUMNS.filter((c) => allowed.has(c)).map((c) => specs.find((f) => f.name === c)!).filter(Boolean);
  const ops = workloadDef(workload)?.operations ?? [];

  const importXml = async (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    e.target.value = '';
    if (!f) return;
    setImportError(undefined);
    try {
      const got = parseConnectPoolXml(await f.text(), engine);
      onChange(got.pool);
      setNotes([`Imported ${f.name}: ${got.pool.connections.length} connection(s), ${Object.keys(got.pool.ops ?? {}).length} routed operation(s).`, ...(got.ignored.length ? [`Not used by Sledge: ${got.ignored.join(', ')}`] : [])]);
    } catch (err) {
      setImportError(err instanceof SledgeError || err instanceof Error ? err.message : String(err));
    }
  };

  const setConn = (i: number, key: string, v: string) => {
    if (!pool) return;
    const conns = pool.connections.map((c, j) => {
      if (j !== i) return c;
      const next = { ...c };
      const spec = specs.find((s) => s.name === key);
      if (key === 'name') next.name = v;
      else if (v === '') delete next[key];
      else next[key] = spec && (spec.kind === 'integer' || spec.kind === 'number') && /^\d+$/.test(v) ? Number(v) : v;
      return next;
    });
    // A renamed connection stays in the operations' lists.
    const old = pool.connections[i]!.name;
    const routes = key === 'name' && pool.ops ? Object.fromEntries(Object.entries(pool.ops).map(([op, r]) => [op, { ...r, connections: r.connections.map((n) => (n === old ? v : n)) }])) : pool.ops;
    onChange({ connections: conns, ...(routes ? { ops: routes } : {}) });
  };
  const addConn = () => {
    const p = pool ?? { connections: [] };
    onChange({ ...p, connections: [...p.connections, { name: nextName(p) }] });
  };
  const removeConn = (i: number) => {
    if (!pool) return;
    const name = pool.connections[i]!.name;
    const connections = pool.connections.filter((_, j) => j !== i);
    if (!connections.length) return onChange(undefined);
    const routes = Object.fromEntries(
      Object.entries(pool.ops ?? {})
        .map(([op, r]) => [op, { ...r, connections: r.connections.filter((n) => n !== name) }] as const)
        .filter(([, r]) => r.connections.length > 0),
    );
    onChange({ connections, ...(Object.keys(routes).length ? { ops: routes } : {}) });
  };
  const toggleRoute = (op: string, name: string, on: boolean) => {
    if (!pool) return;
    const r = pool.ops?.[op] ?? { connections: [], policy: 'round_robin' as PoolPolicy };
    // Keep the pool's order of connections, so first_named and last_named read as the table does.
    const set = new Set(pool.ops?.[op] ? r.connections : [pool.connections[0]!.name]);
    if (on) set.add(name);
    else set.delete(name);
    const list = pool.connections.map((c) => c.name).filter((n) => set.has(n));
    const { [op]: _drop, ...rest } = pool.ops ?? {};
    const routes = list.length ? { ...rest, [op]: { connections: list, policy: r.policy } } : rest;
    onChange({ connections: pool.connections, ...(Object.keys(routes).length ? { ops: routes } : {}) });
  };
  const setPolicy = (op: string, policy: PoolPolicy) => {
    if (!pool?.ops?.[op]) return;
    onChange({ ...pool, ops: { ...pool.ops, [op]: { ...pool.ops[op]!, policy } } });
  };
  const allRoundRobin = () => {
    if (!pool) return;
    const names = pool.connections.map((c) => c.name);
    onChange({ ...pool, ops: Object.fromEntries(ops.map((op) => [op, { connections: names, policy: 'round_robin' as PoolPolicy }])) });
  };

  const poolErrors = Object.entries(errors).filter(([k]) => k.startsWith('target.pool'));
  return (
    <section className="card" aria-labelledby="pool-h" data-testid="pool-editor">
      <h3 id="pool-h">Connect pool</h3>
      {pool && !workloadDef(workload)?.connectPool && (
        <p className="notice" role="status">
          {workloadDef(workload)?.display ?? workload} runs do not go through a connect pool: this pool is kept for TPROC-C and not sent with {workloadDef(workload)?.display ?? workload} jobs.
        </p>
      )}
      <p className="help">
        Several targets in one run (HammerDB&apos;s XML connect pool): every virtual user opens every connection below, and each transaction picks one of its connections by its policy. A
        blank cell is the target&apos;s own setting. NOPM and TPM are measured on the target above; the result adds client-side TPM per transaction and per connection.
      </p>
      <div className="actions">
        <button type="button" onClick={addConn} data-testid="pool-add">
          Add connection
        </button>
        <button type="button" onClick={() => file.current?.click()} data-testid="pool-import">
          Import HammerDB XML…
        </button>
        <input ref={file} type="file" accept=".xml,text/xml,application/xml" hidden onChange={(e) => void importXml(e)} data-testid="pool-file" aria-label="HammerDB connect pool XML file" />
        {pool && (
          <>
            <button type="button" onClick={allRoundRobin} data-testid="pool-all-rr">
              All transactions: round_robin over all
            </button>
            <button type="button" onClick={() => onChange(undefined)} data-testid="pool-remove">
              Remove pool
            </button>
          </>
        )}
      </div>
      {notes.map((n) => (
        <p key={n} className="help" role="status">
          {n}
        </p>
      ))}
      {importError && (
        <p className="field-error" role="alert">
          {importError}
        </p>
      )}
      {pool && (
        <>
          <table className="data compact" data-testid="pool-connections">
            <caption className="sr-only">Pool connections</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                {cols.map((c) => (
                  <th key={c.name} scope="col">
                    {c.title}
                  </th>
                ))}
                <th scope="col">
                  <span className="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {pool.connections.map((c, i) => (
                <tr key={i}>
                  <td>
                    <input aria-label={`Connection ${i + 1} name`} value={c.name} size={8} onChange={(e) => setConn(i, 'name', e.target.value)} aria-invalid={errors[`target.pool.connections.${i}.name`] ? true : undefined} />
                  </td>
                  {cols.map((f) => (
                    <td key={f.name}>
                      <input
                        aria-label={`${c.name} ${f.title}`}
                        type={f.secret ? 'password' : 'text'}
                        autoComplete={f.secret ? 'new-password' : 'off'}
                        placeholder={f.secret && c[f.name] === '' ? 'type it' : "target's"}
                        size={f.name === 'port' ? 6 : 12}
                        value={c[f.name] === undefined ? '' : String(c[f.name])}
                        onChange={(e) => setConn(i, f.name, e.target.value)}
                        aria-invalid={errors[`target.pool.connections.${i}.${f.name}`] ? true : undefined}
                      />
                    </td>
                  ))}
                  <td>
                    <button type="button" onClick={() => removeConn(i)} aria-label={`Remove connection ${c.name}`}>
                      ✕
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h4 style={{ margin: '1rem 0 0.25rem' }}>Connections per transaction</h4>
          <table className="data compact" data-testid="pool-routes">
            <caption className="sr-only">Connections per transaction</caption>
            <thead>
              <tr>
                <th scope="col">Transaction</th>
                {pool.connections.map((c, i) => (
                  <th key={i} scope="col">
                    {c.name}
                  </th>
                ))}
                <th scope="col">Policy</th>
              </tr>
            </thead>
            <tbody>
              {ops.map((op) => {
                const r = pool.ops?.[op];
                return (
                  <tr key={op}>
                    <th scope="row">{op}</th>
                    {pool.connections.map((c, i) => (
                      <td key={i}>
                        <input type="checkbox" aria-label={`${op} uses ${c.name}`} checked={r ? r.connections.includes(c.name) : i === 0} onChange={(e) => toggleRoute(op, c.name, e.target.checked)} />
                      </td>
                    ))}
                    <td>
                      {r ? (
                        <select aria-label={`${op} policy`} value={r.policy} onChange={(e) => setPolicy(op, e.target.value as PoolPolicy)}>
                          {POOL_POLICIES.map((p) => (
                            <option key={p} value={p}>
                              {p}
                            </option>
                          ))}
                        </select>
                      ) : (
                        <span className="help">first connection</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
      {poolErrors.map(([k, m]) => (
        <p key={k} className="field-error" role="alert">
          {m}
        </p>
      ))}
    </section>
  );
}
