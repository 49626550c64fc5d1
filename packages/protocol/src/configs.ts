import Type from 'typebox';
import { Target } from './targets.js';
import { TproccOptions } from './tprocc.js';

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
