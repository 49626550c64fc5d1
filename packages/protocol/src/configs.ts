import Type from 'typebox';
import { Target } from './targets.js';
import { TproccOptions } from './workloads/tprocc.js';

/** A saved configuration: a target plus workload options, reusable from the UI and the API. */
export const SavedConfigInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    target: Target,
    tprocc: Type.Optional(Type.Partial(TproccOptions)),
  },
  { additionalProperties: false, $id: 'SavedConfigInput' },
);
export type SavedConfigInput = Type.Static<typeof SavedConfigInput>;

export const SavedConfig = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    /** Secrets are never returned: they read "********"; sending "********" back keeps the stored value. */
    target: Type.Unknown(),
    tprocc: Type.Unknown(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { $id: 'SavedConfig' },
);
export type SavedConfig = Type.Static<typeof SavedConfig>;

/** GET /profiles: run jobs grouped by profileId (HammerDB performance profiles). */
export const ProfileSummary = Type.Object({
  profileId: Type.Integer(),
  jobs: Type.Integer(),
  engine: Type.String(),
  maxNopm: Type.Number(),
  maxTpm: Type.Number(),
  maxVus: Type.Number(),
});
export type ProfileSummary = Type.Static<typeof ProfileSummary>;

/** One run of a profile: NOPM and TPM at its active VU count. */
export const ProfilePoint = Type.Object({
  jobId: Type.String(),
  engine: Type.String(),
  createdAt: Type.String(),
  activeVus: Type.Number(),
  nopm: Type.Number(),
  tpm: Type.Number(),
});
export type ProfilePoint = Type.Static<typeof ProfilePoint>;
export const ProfileDetail = Type.Object({ profileId: Type.Integer(), jobs: Type.Array(ProfilePoint) });
export type ProfileDetail = Type.Static<typeof ProfileDetail>;

/** GET /best: the completed run with the highest NOPM per engine. */
export const BestJobs = Type.Record(Type.String(), Type.String());
export type BestJobs = Type.Static<typeof BestJobs>;

/** POST /targets/test. */
export const TargetTestResult = Type.Object({ version: Type.String(), schema: Type.Object({ exists: Type.Boolean(), warehouses: Type.Integer() }) });
export type TargetTestResult = Type.Static<typeof TargetTestResult>;

/** POST /jobs/{id}/share. */
export const ShareLink = Type.Object({ token: Type.String(), path: Type.String() });
export type ShareLink = Type.Static<typeof ShareLink>;

/** GET /jobs/{id}/share: one of a job's share links. */
export const ShareInfo = Type.Object({ token: Type.String(), path: Type.String(), createdAt: Type.String({ format: 'date-time' }) }, { $id: 'ShareInfo' });
export type ShareInfo = Type.Static<typeof ShareInfo>;
