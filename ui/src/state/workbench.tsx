import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Capabilities, ConnectPool, EngineId, Job } from '@sledge/protocol';
import { ENGINES, REDACTED, targetValuesOnSwitch, workloadDef, workloadTargetDefaults } from '@sledge/protocol';
import { api, type TargetJsonSchema } from '../api/endpoints.js';
import type { ApiError } from '../api/http.js';
import { collect, defaultsOf, fieldsOf, toFormValue, type FieldSpec, type FormValues } from '../forms/fields.js';
import { DEFAULT_WORKLOAD, workloadOf, workloadUi, workloadUis, type WorkloadUi } from '../workloads/registry.js';
import { nestedOptions } from '../workloads/body.js';
import { editPage, planRerun } from '../util/rerun.js';
import { draftOfPlacement, placementDraftOf, placementOf, type PlacementDraft } from '../util/replicas.js';
import { cached } from './resource.js';
import { setKnownCapabilities } from './capabilities.js';
import { defaultsFor, switchEngineDefaults } from './engine-defaults.js';

/**
 * What the user is working on across the Targets, Schema and Run pages: the
 * engine, the target's form values (per engine, so switching keeps them), the
 * workload's options, and the jobs last started from each page for each engine
 * (the Schema page shows the selected engine's build, not another's). Remembered in
 * localStorage without secrets (passwords stay in memory, or in saved
 * configurations on the server).
 */
export interface WorkbenchState {
  engine: EngineId;
  /** The workload the Schema and Run pages work on (its id). */
  workload: string;
  targets: Partial<Record<EngineId, FormValues>>;
  /** The workload's options as form values (stored as `tprocc` before workloads were an axis). */
  options: FormValues;
  /** The other workloads' options, kept while another one is chosen. */
  parked: Record<string, FormValues>;
  label: string;
  /** Run page: performance profile id (text as typed). */
  profileId: string;
  /** Run page: where the VUs run (this server, all ready replicas, chosen ones), shown when this server is on NATS. */
  placement?: PlacementDraft;
  /** The job each page started last, per engine. */
  jobs: Partial<Record<EngineId, PageJobs>>;
  config?: { id: number; name: string };
  /** The target's connect pool per engine (target.pool), when one is set; remembered without its passwords. */
  pools?: Partial<Record<EngineId, ConnectPool>>;
}

/** The job each page started last: `schema` and `run` for the default workload, `schema:<id>` and `run:<id>` for the others. */
export type PageJobs = Record<string, string>;

/** The key of a page's last job for a workload. */
export const pageJobKey = (page: 'schema' | 'run', workload: string): string => (workload === DEFAULT_WORKLOAD ? page : `${page}:${workload}`);

/** What loading a job into the forms did. */
export interface LoadedJob {
  /** The page that edits it. */
  page: '/run' | '/schema';
  /** Secret fields left empty: the stored job does not keep them and nothing known fills them. */
  missing: string[];
}

interface WorkbenchApi {
  state: WorkbenchState;
  capabilities: Capabilities | undefined;
  schemas: Record<string, TargetJsonSchema> | undefined;
  loadError: ApiError | undefined;
  /** The current engine's target fields. */
  targetFields: FieldSpec[];
  targetValues: FormValues;
  setEngine: (e: EngineId) => void;
  setTargetValue: (name: string, v: string | boolean) => void;
  setTargetValues: (engine: EngineId, values: FormValues) => void;
  /** The workload the Schema and Run pages work on: its form, labels and run fields. */
  workload: WorkloadUi;
  /** Choose the workload of the Schema and Run pages (each keeps its own option values). */
  setWorkload: (id: string) => void;
  setOptionValue: (name: string, v: string | boolean) => void;
  setOptionValues: (values: FormValues) => void;
  /** The workload's schema options for the current engine (TPROC-C: partitioning, stored procedures, tablespaces), kept per engine. */
  schemaFields: FieldSpec[];
  schemaValues: FormValues;
  setSchemaValue: (name: string, v: string | boolean) => void;
  /** The workload's options object of a job body (only `names` when given) with the engine's schema options as `schema`. */
  options: (names?: readonly string[]) => Record<string, unknown>;
  setLabel: (l: string) => void;
  setPlacement: (p: PlacementDraft) => void;
  setProfileId: (p: string) => void;
  /** Record the job a page started, for the engine it runs on (the current engine by default) and its workload (the current one by default). */
  setJob: (page: 'schema' | 'run', id: string, engine?: EngineId, workload?: string) => void;
  /** The job the page started last for the current engine and workload. */
  jobFor: (page: 'schema' | 'run') => string | undefined;
  /** The target as the API expects it for an engine (its remembered values). */
  targetOf: (engine: EngineId) => Record<string, unknown>;
  /** Load a stored job's configuration into the forms ("edit and run"); null for jobs no page edits (datagen). */
  loadJob: (job: Job) => LoadedJob | null;
  setConfig: (c: { id: number; name: string } | undefined) => void;
  /** The current engine's connect pool (target.pool), if any. */
  pool: ConnectPool | undefined;
  /** Set or (undefined) remove the current engine's connect pool. */
  setPool: (p: ConnectPool | undefined) => void;
  /** The target as the API expects it. */
  target: () => Record<string, unknown>;
  /**
   * The loaded saved configuration's id when the target still carries its
   * "********" secrets: sent as `configId` so the server fills them in.
   */
  configId: () => number | undefined;
}

const KEY = 'sledge.workbench';
const Ctx = createContext<WorkbenchApi | null>(null);

function load(): WorkbenchState {
  const fresh: WorkbenchState = { engine: 'sqlite', workload: DEFAULT_WORKLOAD, targets: {}, options: workloadUi(DEFAULT_WORKLOAD).form.defaults(), parked: {}, label: '', profileId: '', jobs: {} };
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return fresh;
    const { tprocc: older, ...s } = JSON.parse(raw) as Partial<WorkbenchState> & { tprocc?: FormValues };
    const known = typeof s.workload === 'string' && workloadUis().some((w) => w.id === s.workload);
    const workload = known ? s.workload! : DEFAULT_WORKLOAD;
    const defaults = workloadUi(workload).form.defaults();
    const parked = s.parked && typeof s.parked === 'object' ? s.parked : {};
    const { placement: storedPlacement, ...rest } = s;
    const placement = placementDraftOf(storedPlacement);
    return { ...fresh, ...rest, workload, parked, options: { ...defaults, ...(s.options ?? older ?? {}) }, profileId: typeof s.profileId === 'string' ? s.profileId : '', jobs: pageJobs(s.jobs), ...(placement ? { placement } : {}) };
  } catch {
    return fresh;
  }
}

/** Stored per-engine page jobs; anything else (an older, engine-less shape) is dropped. */
function pageJobs(v: unknown): WorkbenchState['jobs'] {
  const out: WorkbenchState['jobs'] = {};
  if (!v || typeof v !== 'object') return out;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (!(ENGINES as readonly string[]).includes(k) || !x || typeof x !== 'object') continue;
    const pj: PageJobs = {};
    for (const [page, id] of Object.entries(x as Record<string, unknown>)) if (typeof id === 'string' && /^(schema|run)(:|$)/.test(page)) pj[page] = id;
    out[k as EngineId] = pj;
  }
  return out;
}

function withoutSecrets(s: WorkbenchState, schemas: Record<string, TargetJsonSchema> | undefined): WorkbenchState {
  if (!schemas) return { ...s, targets: {} };
  const targets: WorkbenchState['targets'] = {};
  for (const [engine, values] of Object.entries(s.targets) as [EngineId, FormValues][]) {
    const secret = new Set(fieldsOf(schemas[engine]).filter((f) => f.secret).map((f) => f.name));
    // "********" is a placeholder for a secret kept in a saved configuration, not a secret: it stays.
    targets[engine] = Object.fromEntries(Object.entries(values).filter(([k, v]) => !secret.has(k) || v === REDACTED));
  }
  // Pool connections' passwords stay in memory too.
  const pools: WorkbenchState['pools'] = {};
  for (const [engine, p] of Object.entries(s.pools ?? {}) as [EngineId, ConnectPool][]) {
    const secret = new Set(fieldsOf(schemas[engine]).filter((f) => f.secret).map((f) => f.name));
    pools[engine] = { ...p, connections: p.connections.map((c) => Object.fromEntries(Object.entries(c).filter(([k]) => !secret.has(k))) as ConnectPool['connections'][number]) };
  }
  return { ...s, targets, pools };
}

export function WorkbenchProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<WorkbenchState>(load);
  const [capabilities, setCapabilities] = useState<Capabilities>();
  const [schemas, setSchemas] = useState<Record<string, TargetJsonSchema>>();
  const [loadError, setLoadError] = useState<ApiError>();

  useEffect(() => {
    cached('capabilities', api.capabilities).then((c) => {
      setKnownCapabilities(c);
      setCapabilities(c);
      // Options still at their defaults take the engine's own, now that the server has said what it does.
      setState((s) => ({ ...s, options: switchEngineDefaults(workloadUi(s.workload).form, s.options, { engine: s.engine, caps: undefined }, { engine: s.engine, caps: c }) }));
    }, setLoadError);
    cached('schemas', api.targetSchemas).then(setSchemas, setLoadError);
  }, []);

  useEffect(() => {
    try {
      localStorage.setItem(KEY, JSON.stringify(withoutSecrets(state, schemas)));
    } catch {
      // storage full or disabled: the state lasts for this page only
    }
  }, [state, schemas]);

  const targetFields = useMemo(() => fieldsOf(schemas?.[state.engine]), [schemas, state.engine]);
  // A field left unset shows the workload's default: TPROC-H's own file, database and user (protocol's workload definition), else the target schema's.
  const targetValues = useMemo(
    () => ({ ...defaultsOf(targetFields), ...(workloadTargetDefaults(state.workload, state.engine) ?? {}), ...(state.targets[state.engine] ?? {}) }),
    [targetFields, state.targets, state.engine, state.workload],
  );
  const workload = workloadUi(state.workload);
  // Schema option values are kept per engine beside the target's (where they lived when they were target fields).
  const schemaFields = useMemo(() => workload.form.schemaFields?.(state.engine) ?? [], [workload, state.engine]);
  const schemaValues = useMemo(() => {
    const kept = state.targets[state.engine] ?? {};
    return Object.fromEntries(schemaFields.map((f) => [f.name, kept[f.name] ?? toFormValue(f, f.default)])) as FormValues;
  }, [schemaFields, state.targets, state.engine]);

  // Options still at the old engine's defaults take the new one's (CH-benCHmark's VUs on DuckDB), the parked workloads' too; a value the user chose stays.
  const setEngine = useCallback(
    (engine: EngineId) =>
      setState((s) => {
        if (engine === s.engine) return s;
        const from = { engine: s.engine, caps: capabilities };
        const to = { engine, caps: capabilities };
        const parked = Object.fromEntries(Object.entries(s.parked).map(([id, v]) => [id, workloadUis().some((w) => w.id === id) ? switchEngineDefaults(workloadUi(id).form, v, from, to) : v]));
        return { ...s, engine, parked, options: switchEngineDefaults(workloadUi(s.workload).form, s.options, from, to) };
      }),
    [capabilities],
  );
  const setTargetValue = useCallback(
    (name: string, v: string | boolean) => setState((s) => ({ ...s, targets: { ...s.targets, [s.engine]: { ...(s.targets[s.engine] ?? {}), [name]: v } } })),
    [],
  );
  const setTargetValues = useCallback((engine: EngineId, values: FormValues) => setState((s) => ({ ...s, engine, targets: { ...s.targets, [engine]: values } })), []);
  const setOptionValue = useCallback((name: string, v: string | boolean) => setState((s) => ({ ...s, options: { ...s.options, [name]: v } })), []);
  const setOptionValues = useCallback((values: FormValues) => setState((s) => ({ ...s, options: values })), []);
  const setWorkload = useCallback(
    (id: string) =>
      setState((s) => {
        if (id === s.workload) return s;
        const { [id]: kept, ...parked } = s.parked;
        // Target fields still at the old workload's default take the new one's (the SQLite file, database, user): a value the user chose stays.
        const targets: WorkbenchState['targets'] = {};
        for (const [engine, values] of Object.entries(s.targets) as [EngineId, FormValues][]) {
          targets[engine] = targetValuesOnSwitch(s.workload, id, engine, values, defaultsOf(fieldsOf(schemas?.[engine]))) as FormValues;
        }
        return { ...s, workload: id, targets, options: { ...defaultsFor(workloadUi(id).form, { engine: s.engine, caps: capabilities }), ...(kept ?? {}) }, parked: { ...parked, [s.workload]: s.options } };
      }),
    [schemas, capabilities],
  );
  const setLabel = useCallback((label: string) => setState((s) => ({ ...s, label })), []);
  const setPlacement = useCallback((placement: PlacementDraft) => setState((s) => ({ ...s, placement })), []);
  const setProfileId = useCallback((profileId: string) => setState((s) => ({ ...s, profileId })), []);
  const setJob = useCallback(
    (page: 'schema' | 'run', id: string, engine?: EngineId, workload?: string) =>
      setState((s) => {
        const e = engine ?? s.engine;
        return { ...s, jobs: { ...s.jobs, [e]: { ...(s.jobs[e] ?? {}), [pageJobKey(page, workload ?? s.workload)]: id } } };
      }),
    [],
  );
  const setConfig = useCallback((config: { id: number; name: string } | undefined) => setState((s) => ({ ...s, config })), []);
  const setPool = useCallback(
    (p: ConnectPool | undefined) =>
      setState((s) => {
        const { [s.engine]: _old, ...rest } = s.pools ?? {};
        return { ...s, pools: p ? { ...rest, [s.engine]: p } : rest };
      }),
    [],
  );

  const value = useMemo<WorkbenchApi>(() => {
    // A pool goes with the target only for a workload whose runs use one (TPROC-C); the others would refuse it.
    const pool = workloadDef(state.workload)?.connectPool ? state.pools?.[state.engine] : undefined;
    const target = () => ({ engine: state.engine, ...collect(targetFields, targetValues), ...(pool ? { pool } : {}) });
    const options = (names?: readonly string[]) => ({ ...workload.form.collect(state.options, names), ...(schemaFields.length ? { schema: collect(schemaFields, schemaValues) } : {}) });
    const keptSecret = () => Object.values(target() as Record<string, unknown>).some((v) => v === REDACTED) || (pool?.connections ?? []).some((c) => Object.values(c).includes(REDACTED));
    const configId = () => (state.config && keptSecret() ? state.config.id : undefined);
    const targetOf = (engine: EngineId) => {
      const fields = fieldsOf(schemas?.[engine]);
      const p = state.pools?.[engine];
      return { engine, ...collect(fields, { ...defaultsOf(fields), ...(workloadTargetDefaults(state.workload, engine) ?? {}), ...(state.targets[engine] ?? {}) }), ...(p ? { pool: p } : {}) };
    };
    const jobFor = (page: 'schema' | 'run') => state.jobs[state.engine]?.[pageJobKey(page, state.workload)];
    const loadJob = (job: Job): LoadedJob | null => {
      const page = editPage(job);
      if (!page) return null;
      const plan = planRerun(job, { target: targetOf(job.engine), configId: state.engine === job.engine ? state.config?.id : undefined });
      const t = plan.body.target as unknown as Record<string, unknown>;
      const fields = fieldsOf(schemas?.[job.engine]);
      const values: FormValues = {};
      for (const f of fields) values[f.name] = plan.missing.includes(f.name) ? '' : toFormValue(f, t[f.name] ?? f.default);
      const { form } = workloadOf(job);
      const opts = (plan.body as unknown as Record<string, unknown>)[form.key] as { schema?: Record<string, unknown> } | undefined;
      for (const f of form.schemaFields?.(job.engine) ?? []) values[f.name] = toFormValue(f, opts?.schema?.[f.name] ?? f.default);
      const stored = form.toForm(nestedOptions(form, plan.body as unknown as Record<string, unknown>));
      setState((s) => {
        // The job's workload becomes the pages' one; the options of the one chosen before are kept aside.
        const wid = workloadOf(job).id;
        const { [wid]: kept, ...others } = s.parked;
        const parked = wid === s.workload ? s.parked : { ...others, [s.workload]: s.options };
        const current = wid === s.workload ? s.options : { ...defaultsFor(form, { engine: job.engine, caps: capabilities }), ...(kept ?? {}) };
        // A run's stored warehouses and build VUs are defaults, not what it ran on (the schema's): keep the Schema page's.
        const tp = job.type === 'run' ? { ...stored, ...Object.fromEntries(form.buildFields.map((n) => [n, current[n] ?? stored[n]!])) } : { ...current, ...stored };
        // The job's connect pool comes along; its secrets nothing fills stay empty for the user to type (plan.missing names them).
        const jobPool = t['pool'] as ConnectPool | undefined;
        const { [job.engine]: _p, ...otherPools } = s.pools ?? {};
        const pools = jobPool
          ? { ...otherPools, [job.engine]: { ...jobPool, connections: jobPool.connections.map((c, i) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, plan.missing.includes(`pool.connections.${i}.${k}`) ? '' : v]))) as ConnectPool['connections'] } }
          : otherPools;
        const next: WorkbenchState = { ...s, engine: job.engine, workload: wid, parked, targets: { ...s.targets, [job.engine]: values }, pools, options: tp, label: plan.body.label ?? '' };
        if (job.type === 'run') {
          next.profileId = plan.body.profileId ? String(plan.body.profileId) : '';
          // Where its VUs ran comes along (the form shows it when this server is on NATS).
          next.placement = draftOfPlacement(placementOf(plan.body));
        }
        // The saved configuration stays only when its secrets are what the loaded target uses.
        if (plan.body.configId === undefined && s.engine !== job.engine) delete next.config;
        return next;
      });
      return { page, missing: plan.missing };
    };
    return {
      state,
      capabilities,
      schemas,
      loadError,
      targetFields,
      targetValues,
      setEngine,
      setTargetValue,
      setTargetValues,
      workload,
      setWorkload,
      setOptionValue,
      setOptionValues,
      schemaFields,
      schemaValues,
      setSchemaValue: setTargetValue,
      options,
      setLabel,
      setPlacement,
      setProfileId,
      setJob,
      jobFor,
      targetOf,
      loadJob,
      setConfig,
      pool,
      setPool,
      target,
      configId,
    };
  }, [state, capabilities, schemas, loadError, targetFields, targetValues, workload, schemaFields, schemaValues, setEngine, setTargetValue, setTargetValues, setOptionValue, setOptionValues, setWorkload, setLabel, setPlacement, setProfileId, setJob, setConfig, setPool]);

  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useWorkbench(): WorkbenchApi {
  const v = useContext(Ctx);
  if (!v) throw new Error('useWorkbench outside WorkbenchProvider');
  return v;
}
