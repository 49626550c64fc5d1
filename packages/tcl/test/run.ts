import { createInterp, TclError, TclExit, type Interp } from '../src/index.js';

/** Run a script in a fresh interpreter; stdout, the result, and the error report or exit code. */
export async function run(script: string, setup?: (interp: Interp) => void): Promise<{ out: string; err: string; result?: string; error?: TclError; exit?: number }> {
  let out = '';
  let err = '';
  const interp = createInterp({ stdout: (s) => (out += s), stderr: (s) => (err += s), env: { TMP: '/tmp' } });
  setup?.(interp);
  try {
    const result = await interp.evalFile(script, 'test.tcl');
    return { out, err, result };
  } catch (e) {
    if (e instanceof TclError) return { out, err, error: e };
    if (e instanceof TclExit) return { out, err, exit: e.status };
    throw e;
  }
}
