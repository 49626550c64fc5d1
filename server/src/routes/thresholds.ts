import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, ErrorBody,
  Problems,
  SledgeError,
  ThresholdEvaluation,
  ThresholdsCheckBody,
  parseBaseline,
  parseThresholds,
  validate,
  jobWorkloadDef,
  workloadDef, } from '@sledge/protocol';
import { assertBaseline } from '../engine/baseline.js';
import { diffProfiles } from '../engine/profile-diff.js';
import { hasJudging, judgeJob, judgingOf, type Judging } from '../engine/judge.js';
import type { RouteDeps } from './route-deps.js';

const IdParams = Type.Object({ id: Type.String({ description: 'job id (24 hex characters)' }) });

const DiffParams = Type.Object({ base: Type.Integer({ minimum: 1 }), comp: Type.Integer({ minimum: 1 }) });
const Diff = Type.Object({
  base: Type.Integer(),
  comp: Type.Integer(),
  matched: Type.Integer({ description: 'active-VU counts present in both profiles' }),
  activeVus: Type.Array(Type.Integer()),
  avgBase: Type.Number({ description: 'mean NOPM of the base profile over the matched counts' }),
  avgComp: Type.Number(),
  ratio: Type.Number({ description: '(avgComp - avgBase) / avgBase' }),
  diff: Type.String({ description: "HammerDB's signed ratio: 2 decimals, 4 when 2 would show 0.00 ('+0.05', '-0.0031')" }),
  line: Type.String({ description: 'Profiles compared (unweighted): matched=n, avg_base=..., avg_comp=...' }),
  lines: Type.Array(Type.String(), { description: "every line HammerDB's jobs diff prints (weighted: the unweighted line, then the weighted one or why it is missing)" }),
  weighted: Type.Optional(
    Type.Object({
      physCores: Type.Integer({ description: 'ceil(cpucount / 2) of the base profile\'s first run' }),
      avgBase: Type.Number(),
      avgComp: Type.Number(),
      ratio: Type.Number({ description: 'the weighted ratio (then also `ratio`)' }),
      line: Type.String(),
    }),
  ),
});

/** POST /jobs/:id/thresholds: judge a stored job (any age) on given thresholds and baseline, or on its own; the job is not changed. */
export const thresholdRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  const store = engine.store;
  app.post(
    '/jobs/:id/thresholds',
    {
      schema: {
        tags: ['jobs'],
        summary: "Evaluate thresholds and a baseline against a stored job without changing it (CI on old jobs); an empty body re-evaluates the job's own",
        params: IdParams,
        body: Type.Optional(ThresholdsCheckBody),
        response: { 200: ThresholdEvaluation, 400: ErrorBody, 404: ErrorBody },
      },
      // The protocol check names each bad entry (thresholds[i]) once the job's workload is known; here only the shape.
      validatorCompiler: () => (data: unknown) => ({ value: data }),
    },
    async (req) => {
      const job = store.getJob(req.params.id);
      if (!job) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${req.params.id} not found`, { field: 'id' });
      const body = validate(ThresholdsCheckBody, req.body ?? {}, '');
      const def = workloadDef(job.workload);
      if (!def) throw new SledgeError('SLEDGE_E_VALIDATION', `job ${job.id} is of workload ${job.workload}, which this server does not know`, { field: 'id' });
      let j: Judging;
      if (body.thresholds === undefined && body.baseline === undefined) {
        j = judgingOf(job);
        if (!hasJudging(j)) throw new SledgeError('SLEDGE_E_VALIDATION', `job ${job.id} has no thresholds or baseline of its own: send { thresholds: [...], baseline: {...} }`, { field: 'thresholds' });
      } else {
        const p = new Problems();
        const thresholds = body.thresholds === undefined ? undefined : p.check(() => parseThresholds(body.thresholds, jobWorkloadDef(def, (job.config as Record<string, unknown> | undefined)?.[def.optionsKey])).map((t) => t.expr.trim()));
        const baseline = body.baseline === undefined ? undefined : p.check(() => parseBaseline(body.baseline));
        if (baseline) p.check(() => assertBaseline(store, baseline, job.workload, job.profileId));
        p.throwIfAny();
        j = { ...(thresholds ? { thresholds } : {}), ...(baseline ? { baseline } : {}) };
      }
      return judgeJob(store, job, j);
    },
  );

  app.get(
    '/profiles/:base/diff/:comp',
    {
      schema: {
        tags: ['profiles'],
        summary: "HammerDB's jobs diff: mean NOPM of two profiles over the active-VU counts both ran, and their ratio (weighted=true: CPU-weighted)",
        params: DiffParams,
        querystring: Type.Object({ weighted: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('1'), Type.Literal('false'), Type.Literal('0')], { description: 'HammerDB jobs diff base comp true: w = max(1, avu / phys_cores), phys_cores = ceil(cpucount / 2) of the base profile\'s first run' })) }),
        response: { 200: Diff, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => {
      const { base, comp } = req.params;
      const points = (id: number, field: string) => {
        const ps = store.profileJobs(id);
        if (!ps.length) throw new SledgeError('SLEDGE_E_NOT_FOUND', `profile ${id} has no completed runs`, { field });
        return ps;
      };
      const d = diffProfiles(store, points(base, 'base'), points(comp, 'comp'), req.query.weighted === 'true' || req.query.weighted === '1', `profile ${base}`);
      if ('missing' in d) throw new SledgeError('SLEDGE_E_VALIDATION', `profiles ${base} and ${comp}: ${d.missing.replace('this run', `profile ${comp} ran`)}`, { field: 'comp' });
      return { base, comp, ...d };
    },
  );
};
