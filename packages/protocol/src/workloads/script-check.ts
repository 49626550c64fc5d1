import Type from 'typebox';
import { EngineIdSchema } from '../engines.js';
import { StringEnum } from '../util.js';
import { BUILTIN_SCRIPTS, MAX_SCRIPT_CHARS, MAX_SCRIPTS } from './script.js';

/**
 * Checking pgbench scripts without creating a job (the dashboard's editor
 * checks as the user types): POST /scripts/validate parses each script as a
 * job's creation would and says where each one is wrong, by line and column.
 * A script with a mistake is an answer (200, `error` on that script); a body
 * that is not a list of scripts is a SLEDGE_E_VALIDATION (400).
 */

export const ScriptCheckBody = Type.Object(
  {
    scripts: Type.Array(
      Type.Object(
        {
          name: Type.Optional(Type.String({ maxLength: 64, description: 'the name the error names (default script<N>)' })),
          text: Type.String({ maxLength: MAX_SCRIPT_CHARS, description: "a script in pgbench's script language" }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_SCRIPTS },
    ),
    engine: Type.Optional(EngineIdSchema),
  },
  { additionalProperties: false, $id: 'ScriptCheckBody', description: 'scripts to check; with `engine`, also what that engine refuses (pipelines)' },
);
export type ScriptCheckBody = Type.Static<typeof ScriptCheckBody>;

/** Where a script is wrong: 1-based line and column, and what to fix (without the `name:line:column:` prefix). */
export const ScriptCheckError = Type.Object({
  line: Type.Integer({ minimum: 1 }),
  column: Type.Optional(Type.Integer({ minimum: 1, description: 'absent when the whole line is at fault (a meta-command the engine refuses)' })),
  message: Type.String(),
  /** The whole message as a job's creation gives it: `<name>:<line>:<column>: <what>`. */
  text: Type.String(),
});
export type ScriptCheckError = Type.Static<typeof ScriptCheckError>;

export const ScriptCheck = Type.Object(
  {
    ok: Type.Boolean({ description: 'every script parses (and runs on `engine` when one was given)' }),
    scripts: Type.Array(
      Type.Object({
        name: Type.String(),
        /** The job body's field that holds the script (`script.scripts[i].text`). */
        field: Type.String(),
        /** Commands parsed (SQL commands and meta-commands); 0 when it does not parse. */
        commands: Type.Integer(),
        error: Type.Optional(ScriptCheckError),
      }),
    ),
  },
  { $id: 'ScriptCheck' },
);
export type ScriptCheck = Type.Static<typeof ScriptCheck>;

/** pgbench's built-in scripts with their text (GET /scripts/builtins), starting points for one's own. */
export const ScriptBuiltins = Type.Array(Type.Object({ name: StringEnum(BUILTIN_SCRIPTS), text: Type.String() }), { $id: 'ScriptBuiltins' });
export type ScriptBuiltins = Type.Static<typeof ScriptBuiltins>;

