import { closeVuLog, logJobOutput, openVuLog, vuLogFile } from './logtotemp.js';
import { isTerminal, JOB_TYPES, scrub, secretValues, SledgeError, toSledgeError, type Job, type JobType, type Target } from '@sledge/protocol';
import type { JobEngine } from '../../engine/engine.js';
import { loadDriver } from '../../engine/registry.js';
import { DATABASES, keyName } from './dicts.js';
import { dictToSledge, dictToSledgeTproch, KeyValueError, keyForField, TCSET_MAP, VUSET_MAP, type SledgeFields } from './keymap.js';
import { failure, success, type Outcome } from './reply.js';
import { TPROCH_NO_DATAGEN, type Ctx } from './settings.js';
import type { VuOption } from './state.js';
import { existingVus } from './vus.js';
import { hammerdbPool } from '../../pools/cpool-files.js';
import { boundSecretRefusal } from './secret-binding.js';
import { confirmLines } from './confirm.js';

/**
 * The verbs that start work: buildschema, checkschema, deleteschema, vurun
 * (Sledge jobs through engine.submit, exactly like POST /api/v1/jobs), and
 * HammerDB's VU lifecycle (vucreate, vudestroy) around them.
 */
export interface RunCtx extends Ctx {
  engine: JobEngine;
  /** Start this host's CPU agent (metstart's local agent); false when it cannot be started. */
  startAgent?: () => boolean;
}

/** How long vudestroy waits for a stopped job to end (HammerDB waits up to 20 s). */
export const VUDESTROY_WAIT_MS = 20_000;

/**
 * What hammerdbcli prints around a build's or delete's reply: its implicit
 * clearscript's "Script cleared" and the yes/no question it answers itself
 * (confirm; the CLI prints the answer). The web service's message is unchanged.
 */
const withCliLines = (message: string, confirm: string[] | null) => ({ ...success(message), clearscript: 'Script cleared', ...(confirm ? { confirm } : {}) });

/** vurun with no script loaded (HammerDB's message). */
export const NO_SCRIPT_TO_RUN = 'Error: There is no workload to run because the Script is empty';

/** Run-time tprocc fields (the schema fields warehouses/buildVus belong to builds). */
const RUN_FIELDS = ['totalIterations', 'raiseError', 'keyAndThink', 'driver', 'rampup', 'duration', 'allWarehouse', 'timeProfile', 'asyncScale', 'asyncClients', 'asyncDelayMs', 'asyncVerbose'];

function fieldsOf(ctx: Ctx): SledgeFields | Outcome {
  try {
    return (ctx.s.bm === 'TPC-H' ? dictToSledgeTproch : dictToSledge)(ctx.s.prefix, ctx.s.db.engine, ctx.s.dict);
  } catch (e) {
    if (e instanceof KeyValueError) return failure(e.message);
    throw e;
  }
}

const isFields = (x: SledgeFields | Outcome): x is SledgeFields => typeof x === 'object' && x !== null && 'target' in x && 'tprocc' in x;

/** Submit a job; a SledgeError becomes HammerDB's error envelope naming the dict key, with no secret in it. */
async function submit(ctx: RunCtx, type: JobType, fields: SledgeFields, tprocc: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Job | Outcome> {
  // A job that connects sends the session's passwords only where they were set for (datagen writes files and connects nowhere).
  if (type !== ('datagen' as string)) {
    const refused = boundSecretRefusal(ctx.s, fields.target);
    if (refused) return failure(refused);
  }
  try {
    const label = `HammerDB API ${verbOf(type)}`;
    // CPU agent samples are recorded while metstart is in force, as HammerDB records them.
    const metrics = { cpu: ctx.s.metricsOn };
    // Every job gets the dict's schema options (partitioning, stored procedures, tablespaces), as it did when they were target fields.
    const options = fields.tprocc['schema'] === undefined ? tprocc : { ...tprocc, schema: fields.tprocc['schema'] };
    const job =
      ctx.s.bm === 'TPC-H'
        ? await ctx.engine.submit({ type, workload: 'tproch', target: fields.target, tproch: tprocc, label, metrics, ...extra })
        : await ctx.engine.submit({ type, target: fields.target, tprocc: options, label, metrics, ...extra });
    // logtotemp: a build's own VUs open the log as vucreate's do (HammerDB creates VUs for a build too).
    if (ctx.s.vu.logtotemp === '1' && !vuLogFile(ctx.s)) openVuLog(ctx.s);
    logJobOutput(ctx.engine, ctx.s, job.id);
    return job;
  } catch (e) {
    const err = toSledgeError(e, 'SLEDGE_E_INTERNAL');
    const secrets = secretValues({ ...fields.target, engine: ctx.s.db.engine } as unknown as Target);
    const key = err.field ? keyForField(ctx.s.prefix, ctx.s.db.engine, err.field, ctx.s.bm === 'TPC-H') : undefined;
    return failure(`${scrub(err.message, secrets)}${key ? ` (HammerDB ${key.startsWith('vuset') || key.startsWith('tcset') ? '' : 'key '}${key})` : ''}`);
  }
}

const verbOf = (t: JobType) => ({ build: 'buildschema', check: 'checkschema', delete: 'deleteschema', run: 'vurun', datagen: 'datagenrun' })[t as string] ?? t;
const isJob = (x: Job | Outcome): x is Job => typeof x === 'object' && x !== null && 'id' in x && 'status' in x;

export async function buildschema(ctx: RunCtx): Promise<Outcome> {
  const { s } = ctx;
  if (existingVus(s, ctx.store)) return failure('Cannot build schema with Virtual Users active, destroy Virtual Users first');
  const fields = fieldsOf(ctx);
  if (!isFields(fields)) return fields;
  if (s.bm === 'TPC-H') return buildTproch(ctx, fields);
  const W = Number(fields.tprocc['warehouses']);
  const n = Number(fields.tprocc['buildVus']);
  const vuKey = keyName(s.prefix, 'num_vu');
  if (!Number.isInteger(n) || n < 1 || n > 1024) return failure('Number of virtual users to build schema must be an integer');
  if (n > W) return failure(`Build virtual users must be less than or equal to number of warehouses. You have ${n} virtual users building ${W} warehouses`);
  const job = await submit(ctx, 'build', fields, { warehouses: W, buildVus: n });
  if (!isJob(job)) return job;
  s.script = null;
  s.vus = { count: n > 1 ? n + 1 : 1, monitor: n > 1, jobId: job.id };
  return withCliLines(
    n === 1
      ? `Building ${W} Warehouses(s) with 1 Virtual User: JOBID=${job.id}`
      : `Building ${W} Warehouses with ${n + 1} Virtual Users, ${n} active + 1 Monitor VU(dict value ${vuKey} is set to ${n}): JOBID=${job.id}`,
    confirmLines(s, 'build', W),
  );
}

async function oneVuJob(ctx: RunCtx, type: 'check' | 'delete', what: string): Promise<Outcome> {
  const { s } = ctx;
  if (existingVus(s, ctx.store)) return failure(`Cannot ${what} schema with Virtual Users active, destroy Virtual Users first`);
  const fields = fieldsOf(ctx);
  if (!isFields(fields)) return fields;
  const job = await submit(ctx, type, fields, s.bm === 'TPC-H' ? { scaleFactor: fields.tproch?.['scaleFactor'] } : {});
  if (!isJob(job)) return job;
  s.vus = { count: 1, monitor: false, jobId: job.id };
  if (type === 'check') return success(`Checking schema with 1 Virtual User: JOBID=${job.id}`);
  // HammerDB's deleteschema clears the script, as buildschema does.
  s.script = null;
  return withCliLines(`Deleting schema with 1 Virtual User: JOBID=${job.id}`, s.bm === 'TPC-H' ? null : confirmLines(s, 'delete'));
}

export const checkschema = (ctx: RunCtx) => oneVuJob(ctx, 'check', 'check');
export const deleteschema = (ctx: RunCtx) => oneVuJob(ctx, 'delete', 'delete');

/** vurun; `extra` tprocc options (steprun's steps) are added to the session's. */
export async function vurun(ctx: RunCtx, extra: Record<string, unknown> = {}): Promise<Outcome> {
  const { s } = ctx;
  const busy = existingVus(s, ctx.store);
  if (busy?.jobId) return failure(`Error running virtual users: job ${busy.jobId} is still running, wait for it to complete or stop it with vudestroy`);
  // HammerDB's web service (v3.2-4.6) runs only a loaded script; loadscript or customscript first.
  if (!s.script) return failure(NO_SCRIPT_TO_RUN);
  const fields = fieldsOf(ctx);
  if (!isFields(fields)) return fields;
  if (s.bm === 'TPC-H') return runTproch(ctx, fields);
  const tprocc: Record<string, unknown> = Object.fromEntries(RUN_FIELDS.filter((f) => fields.tprocc[f] !== undefined).map((f) => [f, fields.tprocc[f]]));
  for (const [opt, x] of Object.entries(VUSET_MAP)) tprocc[x.path.slice('tprocc.'.length)] = Number(s.vu[opt as VuOption]);
  tprocc[TCSET_MAP['refreshrate']!.path.slice('tprocc.'.length)] = Number(s.tc['tc_refresh_rate']);
  const timed = tprocc['driver'] !== 'test';
  // <prefix>_connect_pool true: the run goes through the stored <prefix>cpool.xml (HammerDB's config/connectpool file).
  if (/^(true|1|yes|on)$/i.test((s.dict.tpcc?.[keyName(s.prefix, 'connect_pool')] ?? '').trim())) {
    try {
      fields.target['pool'] = await hammerdbPool(ctx.engine.dataDir, s.prefix, s.db.engine, ctx.engine.store);
    } catch (e) {
      return failure(`${e instanceof Error ? e.message : String(e)} (HammerDB key ${keyName(s.prefix, 'connect_pool')})`);
    }
  }
  // jobs profileid N: TPROC-C runs join performance profile N, as HammerDB's jobmain gives them profile_id.
  const job = await submit(ctx, 'run', fields, { ...tprocc, ...extra }, s.jobs.profileId > 0 ? { profileId: s.jobs.profileId } : {});
  if (!isJob(job)) return job;
  const steps = extra['steps'] as { vus: number }[] | undefined;
  const slots = steps ? Math.max(...steps.map((x) => x.vus)) : Number(s.vu.vu);
  s.vus = { count: slots + (timed ? 1 : 0), monitor: timed, jobId: job.id };
  return success(steps ? `Running Virtual Users in ${steps.length} steps (${steps.map((x) => x.vus).join(', ')} VUs; replicas run as steps of this one job): JOBID=${job.id}` : `Running Virtual Users: JOBID=${job.id}`);
}

/** buildschema with bm TPC-H: a TPROC-H build of scale_fact with num_tpch_threads workers plus the monitor. */
async function buildTproch(ctx: RunCtx, fields: SledgeFields): Promise<Outcome> {
  const { s } = ctx;
  const o = fields.tproch ?? {};
  const n = Number(o['buildVus'] ?? 1);
  const sf = Number(o['scaleFactor'] ?? 1);
  if (!Number.isInteger(n) || n < 1 || n > 1024) return failure('Number of virtual users to build schema must be an integer');
  const job = await submit(ctx, 'build', fields, { scaleFactor: sf, buildVus: n });
  if (!isJob(job)) return job;
  s.script = null;
  s.vus = { count: n + 1, monitor: true, jobId: job.id };
  return withCliLines(`Building Scale Factor ${sf} with ${n + 1} Virtual Users, ${n} active + 1 Monitor VU(dict value ${keyName(s.prefix, 'num_tpch_threads')} is set to ${n}): JOBID=${job.id}`, null);
}

/**
 * vurun with bm TPC-H: one VU is the power test; more are the throughput
 * test, one stream per VU, except that with refresh_on VU 1 runs the
 * refresh stream (HammerDB's rule), so streams = VUs - 1.
 */
async function runTproch(ctx: RunCtx, fields: SledgeFields): Promise<Outcome> {
  const { s } = ctx;
  const vus = Number(s.vu.vu);
  const o = { ...(fields.tproch ?? {}) };
  delete o['buildVus'];
  const refresh = o['refresh'] === true;
  if (vus > 1 && refresh && vus < 3) return failure('A throughput test with refresh_on needs at least 3 Virtual Users: 1 refresh stream and 2 query streams');
  const options = vus <= 1 ? { ...o, mode: 'power' } : { ...o, mode: 'throughput', streams: refresh ? vus - 1 : vus };
  const job = await submit(ctx, 'run', fields, options);
  if (!isJob(job)) return job;
  s.vus = { count: vus, monitor: false, jobId: job.id };
  return success(`Running Virtual Users: JOBID=${job.id}`);
}

export function vucreate(ctx: Ctx): Outcome {
  const { s } = ctx;
  if (!s.script) return failure('No Script loaded: Load script before creating Virtual Users');
  if (existingVus(s, ctx.store)) return failure('Virtual Users exist, destroy with vudestroy before creating');
  // custommonitor decides the monitor VU of a custom script.
  // HammerDB's TPROC-H driver script (loadscript) has no monitor VU (it leaves lprefix "load"): N query streams, N VUs.
  // A custom script keeps its own driver's rule (HammerDB 3.2's service gave a timed custom script one under TPC-H).
  const timed = s.script.custom ? (s.customMonitor ?? s.script.driver === 'timed') : s.script.driver === 'timed' && s.bm !== 'TPC-H';
  const count = Number(s.vu.vu) + (timed ? 1 : 0);
  s.vus = { count, monitor: timed };
  const logging = openVuLog(s);
  const created = timed ? `${count} Virtual Users Created with Monitor VU` : `${count} Virtual Users Created`;
  return success(logging ? `${logging}\n${created}` : created);
}

/** vudestroy: stops the VUs' job when it still runs (waiting up to 20 s), then forgets the VUs. */
export async function vudestroy(ctx: RunCtx, waitMs = VUDESTROY_WAIT_MS): Promise<Outcome> {
  const { s } = ctx;
  if (!s.vus) return failure('No virtual users found to destroy');
  const id = s.vus.jobId;
  const active = () => {
    const j = id ? ctx.store.getJob(id) : undefined;
    return j !== undefined && !isTerminal(j.status);
  };
  if (id && active()) {
    try {
      ctx.engine.stop(id);
    } catch (e) {
      if (!(SledgeError.is(e) && (e as SledgeError).code === 'SLEDGE_E_CONFLICT')) throw e;
    }
    const end = Date.now() + waitMs;
    while (active() && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    if (active()) return failure('Virtual Users remain running in background or shutting down, retry');
  }
  s.vus = null;
  closeVuLog(s);
  return success('vudestroy success');
}

/** The transaction counter runs inside every Sledge run job; these verbs report on it. */
/**
 * HammerDB's answers: running from tcstart until tcstop (its counter thread),
 * and Sledge's counter also runs inside every run job, tcstart or not.
 */
export function tcstatus(ctx: RunCtx): Outcome {
  const id = ctx.engine.activeJobId;
  const job = id ? ctx.store.getJob(id) : undefined;
  if (job?.type === 'run') return success(`Transaction Counter thread running with job ${job.id}`);
  return success(ctx.s.tcOn ? 'Transaction Counter thread running' : 'Transaction Counter is not running');
}

export function tcstart({ s }: Ctx): Outcome {
  if (s.tcOn) return success('Transaction Counter thread already running');
  s.tcOn = true;
  return success(`Transaction Counter Started: it samples every Sledge run job (refresh rate ${String(s.tc['tc_refresh_rate'])} secs): see jobs?jobid=JOBID&tcount`);
}

export function tcstop({ s }: Ctx): Outcome {
  if (!s.tcOn) return success('Transaction Counter is not running');
  s.tcOn = false;
  return success('Transaction Counter Stopped: run jobs still record their own counts (jobs?jobid=JOBID&tcount)');
}

/** dgset's flat-file generation, when this server's engine has datagen jobs. */
export async function datagenrun(ctx: RunCtx): Promise<Outcome> {
  const { s } = ctx;
  if (!(JOB_TYPES as readonly string[]).includes('datagen')) return failure('datagenrun is not supported by this Sledge server');
  if (s.bm === 'TPC-H') return failure(TPROCH_NO_DATAGEN);
  if (existingVus(s, ctx.store)) return failure('Virtual Users exist, destroy with vudestroy before generating data');
  const fields = fieldsOf(ctx);
  if (!isFields(fields)) return fields;
  const W = Number(s.dg.warehouse);
  const n = Number(s.dg.vu);
  const job = await submit(ctx, 'datagen' as string as JobType, fields, { warehouses: W }, { datagen: { dir: s.dg.directory, workers: n } });
  if (!isJob(job)) return job;
  s.vus = { count: n > 1 ? n + 1 : 1, monitor: n > 1, jobId: job.id };
  return success(`Generating ${W} Warehouses for ${s.db.name} with ${n} Virtual User${n === 1 ? '' : 's'} in ${s.dg.directory}: JOBID=${job.id}`);
}

/** librarycheck: whether each database's client library loads. */
export async function librarycheck(): Promise<string[]> {
  return Promise.all(
    DATABASES.map(async (d) => {
      try {
        const driver = await loadDriver(d.engine);
        const probe = await driver.probe();
        return probe.available ? `success ... loaded library ${driver.library} for ${d.name}` : `error: failed to load ${driver.library} for ${d.name} - ${probe.reason ?? 'unknown reason'}`;
      } catch (e) {
        return `error: failed to load the ${d.engine} driver for ${d.name} - ${e instanceof Error ? e.message : String(e)}`;
      }
    }),
  );
}
