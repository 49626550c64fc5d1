import { describe, expect, it } from 'vitest';
import { ScriptClient, type ScriptIo, type ScriptPipeline } from './client.js';
import { parseScript, renderStatement } from './parse.js';

/** A ScriptIo that records what a client does; `failAt` makes that pipeline's end() throw. */
function recorder(opts: { pipelines?: boolean; failEnd?: boolean } = {}): { io: ScriptIo; log: string[] } {
  const log: string[] = [];
  const text = (st: Parameters<ScriptIo['query']>[0]): string => renderStatement(st, (n) => `$${n}`);
  const io: ScriptIo = {
    query: async (st, params) => { log.push(`query ${text(st)} [${params.join(',')}]`); return []; },
    begin: async () => { log.push('begin'); },
    commit: async () => { log.push('commit'); },
    rollback: async () => { log.push('rollback'); },
    sleep: async (ms) => { log.push(`sleep ${ms}`); },
    debug: () => undefined,
    ...(opts.pipelines === false ? {} : {
      startPipeline: (): ScriptPipeline => {
        log.push('start');
        return {
          query: (st, params) => { log.push(`send ${text(st)} [${params.join(',')}]`); },
          tx: (kind) => { log.push(`send ${kind}`); },
          sync: () => { log.push('send sync'); },
          end: async () => { log.push('sync'); if (opts.failEnd) throw new Error('division by zero'); },
        };
      },
    }),
  };
  return { io, log };
}

const client = (): ScriptClient => new ScriptClient({ uniform: () => 0.5 }, { clientId: 0, scale: 1, defaultSeed: 1n, randomSeed: 1n });

describe('a script client in a pipeline (\\startpipeline ... \\endpipeline)', () => {
  it('sends the statements without waiting and ends with one Sync; meta-commands run in between', async () => {
    const { io, log } = recorder();
    const s = parseScript('p', '\\set a 5\n\\startpipeline\nBEGIN;\nUPDATE t SET v = v + 1 WHERE k = :a;\n\\set a :a + 1\n\\sleep 2 ms\nSELECT :a \\; SELECT 2;\nEND;\n\\endpipeline\nSELECT :a;\n');
    await client().run(s, io);
    expect(log).toEqual([
      'start', 'send begin', 'send UPDATE t SET v = v + 1 WHERE k = $1 [5]', 'sleep 2', 'send SELECT $1 [6]', 'send SELECT 2 []', 'send commit', 'sync',
      'query SELECT $1 [6]',
    ]);
  });

  it("an error at the pipeline's end fails the script, and the client rolls back (the pipeline may have left a transaction aborted)", async () => {
    const { io, log } = recorder({ failEnd: true });
    const s = parseScript('p', '\\startpipeline\nBEGIN;\nSELECT 1/0;\nCOMMIT;\n\\endpipeline\nSELECT 3;\n');
    await expect(client().run(s, io)).rejects.toThrow('division by zero');
    expect(log).toEqual(['start', 'send begin', 'send SELECT 1/0 []', 'send commit', 'sync', 'rollback']);
  });

  it('an error inside the pipeline (an undefined variable) ends it with its Sync before the rollback', async () => {
    const { io, log } = recorder();
    const s = parseScript('p', '\\startpipeline\nSELECT 1;\nSELECT :nope;\n\\endpipeline\n');
    await expect(client().run(s, io)).rejects.toThrow('p:3: undefined variable "nope"');
    expect(log).toEqual(['start', 'send SELECT 1 []', 'sync']);
  });

  it('a pipeline opened in one \\if branch and closed outside it is checked while running, as pgbench does', async () => {
    const { io } = recorder();
    const s = parseScript('p', '\\if false\n\\startpipeline\n\\endif\nSELECT 1;\n\\endpipeline\n');
    await expect(client().run(s, io)).rejects.toThrow('p:5: \\endpipeline: not in a pipeline');
  });

  it('\\syncpipeline sends a Sync where it stands and the pipeline goes on; \\endpipeline sends the last', async () => {
    const { io, log } = recorder();
    const s = parseScript('p', '\\startpipeline\nSELECT 1;\n\\syncpipeline\n\\set a 7\nSELECT :a;\n\\syncpipeline\n\\endpipeline\nSELECT 3;\n');
    await client().run(s, io);
    expect(log).toEqual(['start', 'send SELECT 1 []', 'send sync', 'send SELECT $1 [7]', 'send sync', 'sync', 'query SELECT 3 []']);
  });

  it("an error at the end of a pipeline with \\syncpipeline counts once (pgbench 17 counts one failed transaction) and rolls back", async () => {
    const { io, log } = recorder({ failEnd: true });
    const s = parseScript('p', '\\startpipeline\nSELECT 1/0;\n\\syncpipeline\nSELECT 1/0;\n\\endpipeline\nSELECT 3;\n');
    await expect(client().run(s, io)).rejects.toThrow('division by zero');
    expect(log).toEqual(['start', 'send SELECT 1/0 []', 'send sync', 'send SELECT 1/0 []', 'sync', 'rollback']);
  });

  it('a \\syncpipeline reached outside a pipeline while running is an error of the script, as \\endpipeline is', async () => {
    const { io } = recorder();
    const s = parseScript('p', '\\if false\n\\startpipeline\n\\endif\n\\syncpipeline\n\\endpipeline\n');
    await expect(client().run(s, io)).rejects.toThrow('p:4: \\syncpipeline: not in a pipeline');
  });

  it('on an engine without pipelines the client refuses (the job is refused before it runs: checkScriptsOnDriver)', async () => {
    const { io } = recorder({ pipelines: false });
    await expect(client().run(parseScript('p', '\\startpipeline\nSELECT 1;\n\\endpipeline\n'), io)).rejects.toThrow('p:1: pipelines are not supported on this engine');
  });
});
