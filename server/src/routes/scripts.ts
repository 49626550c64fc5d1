import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BUILTIN_SCRIPTS, ErrorBody, ScriptBuiltins, ScriptCheck, ScriptCheckBody, SledgeError, validate, type ScriptCheckError } from '@sledge/protocol';
import { checkScriptsOnDriver, parseScript, ScriptSyntaxError, type Script } from '@sledge/core';
import { builtinScript } from '@sledge/sql';
import { loadDriver } from '../engine/registry.js';
import type { RouteDeps } from './route-deps.js';

/** `name:line[:column]: what` as the core's script errors word it, split (the line from the message when the error carries none). */
function placed(e: SledgeError, name: string): ScriptCheckError {
  if (e instanceof ScriptSyntaxError) {
    const prefix = `${e.script}:${e.line}:${e.column}: `;
    return { line: e.line, column: e.column, message: e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message, text: e.message };
  }
  const m = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+)(?::(\\d+))?: `).exec(e.message);
  if (!m) return { line: 1, message: e.message, text: e.message };
  return { line: Number(m[1]), ...(m[2] ? { column: Number(m[2]) } : {}), message: e.message.slice(m[0].length), text: e.message };
}

/**
 * The script workload's editor support: pgbench's built-in scripts as
 * starting points, and a check of scripts as the user types (the same parser
 * and engine rules a job's creation applies, nothing stored).
 */
export const scriptRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app) => {
  app.get(
    '/scripts/builtins',
    { schema: { tags: ['scripts'], summary: "pgbench's built-in scripts (tpcb-like, simple-update, select-only) with their text", response: { 200: ScriptBuiltins } } },
    async () => BUILTIN_SCRIPTS.map((name) => ({ name, text: builtinScript(name) })),
  );

  app.post(
    '/scripts/validate',
    {
      schema: {
        tags: ['scripts'],
        summary: 'Check pgbench scripts as a script job would (syntax; with engine, what the engine refuses): each script\'s error with line and column; nothing is stored',
        body: ScriptCheckBody,
        response: { 200: ScriptCheck, 400: ErrorBody, 424: ErrorBody },
      },
      // Field errors name the body's paths (scripts[0].text) through protocol's validate, as the job routes do.
      validatorCompiler: () => (data: unknown) => ({ value: data }),
    },
    async (req) => {
      const body = validate(ScriptCheckBody, req.body ?? {}, '');
      const driver = body.engine ? await loadDriver(body.engine) : undefined;
      if (driver && !driver.openParamSession) {
        throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `the ${driver.engine} driver does not run scripts (it has no parameter session)`, { field: 'engine' });
      }
      const scripts = body.scripts.map((s, i) => {
        const name = s.name?.trim() || `script${i + 1}`;
        const field = `script.scripts[${i}].text`;
        let parsed: Script | undefined;
        let error: ScriptCheckError | undefined;
        try {
          parsed = parseScript(name, s.text, { field });
          if (driver) checkScriptsOnDriver([parsed], driver);
        } catch (e) {
          if (!(e instanceof SledgeError)) throw e;
          error = placed(e, name);
        }
        return { name, field, commands: error ? 0 : (parsed?.commands.length ?? 0), ...(error ? { error } : {}) };
      });
      return { ok: scripts.every((s) => !s.error), scripts };
    },
  );
};
