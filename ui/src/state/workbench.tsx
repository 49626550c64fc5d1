import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Capabilities, EngineId } from '@sledge/protocol';
import { REDACTED } from '@sledge/protocol';
import { api, type TargetJsonSchema } from '../api/endpoints.js';
import type { ApiError } from '../api/http.js';
import { collect, defaultsOf, fieldsOf, type FieldSpec, type FormValues } from '../forms/fields.js';
import { tproccDefaults } from '../forms/tprocc.js';
import { cached } from './resource.js';

/**
 * What the user is working on across the Targets, Schema and Run pages: the
 * engine, the target's form values (per engine, so switching keeps them), the
 * TPROC-C options, and the jobs last started from each page. Remembered in
 * localStorage without secrets (passwords stay in memory, or in saved
 * configurations on the server).
 */
export interface WorkbenchState {
  engine: EngineId;
  targets: Partial<Record<EngineId, FormValues>>;
  tprocc: FormValues;
  label: string;
  jobs: { schema?: string; run?: string };
  config?: { id: number; name: string };
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
  setTproccValue: (name: string, v: string | boolean) => void;
  setTproccValues: (values: FormValues) => void;
  setLabel: (l: string) => void;
  setJob: (page: 'schema' | 'run', id: string) => void;
  setConfig: (c: { id: number; name: string } | undefined) => void;
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
  const fresh: WorkbenchState = { engine: 'sqlite', targets: {}, tprocc: tproccDefaults(), label: '', jobs: {} };
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return fresh;
    const s = JSON.parse(raw) as Partial<WorkbenchState>;
    return { ...fresh, ...s, tprocc: { ...fresh.tprocc, ...(s.tprocc ?? {}) }, jobs: s.jobs ?? {} };
  } catch {
    return fresh;
  }
}

function withoutSecrets(s: WorkbenchState, schemas: Record<string, TargetJsonSchema> | undefined): WorkbenchState {
  if (!schemas) return { ...s, targets: {} };
  const targets: WorkbenchState['targets'] = {};
  for (const [engine, values] of Object.entries(s.targets) as [EngineId, FormValues][]) {
    const secret = new Set(fieldsOf(schemas[engine]).filter((f) => f.secret).map((f) => f.name));
    // "********" is a placeholder for a secret kept in a saved configuration, not a secret: it stays.
    targets[engine] = Object.fromEntries(Object.entries(values).filter(([k, v]) => !secret.has(k) || v === REDACTED));
  }
  return { ...s, targets };
}

export function WorkbenchProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<WorkbenchState>(load);
  const [capabilities, setCapabilities] = useState<Capabilities>();
  const [schemas, setSchemas] = useState<Record<string, TargetJsonSchema>>();
  const [loadError, setLoadError] = useState<ApiError>();

  useEffect(() => {
    cached('capabilities', api.capabilities).then(setCapabilities, setLoadError);
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
  const targetValues = useMemo(() => ({ ...defaultsOf(targetFields), ...(state.targets[state.engine] ?? {}) }), [targetFields, state.targets, state.engine]);

  const setEngine = useCallback((engine: EngineId) => setState((s) => ({ ...s, engine })), []);
  const setTargetValue = useCallback(
    (name: string, v: string | boolean) => setState((s) => ({ ...s, targets: { ...s.targets, [s.engine]: { ...(s.targets[s.engine] ?? {}), [name]: v } } })),
    [],
  );
  const setTargetValues = useCallback((engine: EngineId, values: FormValues) => setState((s) => ({ ...s, engine, targets: { ...s.targets, [engine]: values } })), []);
  const setTproccValue = useCallback((name: string, v: string | boolean) => setState((s) => ({ ...s, tprocc: { ...s.tprocc, [name]: v } })), []);
  const setTproccValues = useCallback((values: FormValues) => setState((s) => ({ ...s, tprocc: values })), []);
  const setLabel = useCallback((label: string) => setState((s) => ({ ...s, label })), []);
  const setJob = useCallback((page: 'schema' | 'run', id: string) => setState((s) => ({ ...s, jobs: { ...s.jobs, [page]: id } })), []);
  const setConfig = useCallback((config: { id: number; name: string } | undefined) => setState((s) => ({ ...s, config })), []);

  const value = useMemo<WorkbenchApi>(() => {
    const target = () => ({ engine: state.engine, ...collect(targetFields, targetValues) });
    const configId = () => (state.config && Object.values(target() as Record<string, unknown>).some((v) => v === REDACTED) ? state.config.id : undefined);
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
      setTproccValue,
      setTproccValues,
      setLabel,
      setJob,
      setConfig,
      target,
      configId,
    };
  }, [state, capabilities, schemas, loadError, targetFields, targetValues, setEngine, setTargetValue, setTargetValues, setTproccValue, setTproccValues, setLabel, setJob, setConfig]);

  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useWorkbench(): WorkbenchApi {
  const v = useContext(Ctx);
  if (!v) throw new Error('useWorkbench outside WorkbenchProvider');
  return v;
}
