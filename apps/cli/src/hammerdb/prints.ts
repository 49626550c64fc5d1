import type { SledgeClient } from '../client.js';
import { pairsOf, pdict, type DictValue } from './pdict.js';
import { messageOf, type Reply } from './reply.js';

/**
 * `print db|bm|dict|generic|script|vuconf|vucreated|vustatus|vucomplete|datagen|tcconf`
 * as HammerDB's CLI prints it (text, not the web service's JSON).
 */
export const PRINT_OPTIONS = ['db', 'bm', 'dict', 'generic', 'script', 'vuconf', 'vucreated', 'vustatus', 'vucomplete', 'datagen', 'tcconf'] as const;
const USAGE = `Usage: print [${PRINT_OPTIONS.join('|')}]`;

const get = async (client: SledgeClient, option: string) => (await client.hammerdb('GET', `/print?${option}`)) as Reply;

/** The lines `print <option>` shows, and its return value (vucomplete returns true/false). */
export async function printOption(client: SledgeClient, option: string): Promise<{ lines: string[]; value: string }> {
  if (!(PRINT_OPTIONS as readonly string[]).includes(option)) return { lines: ['Error: invalid option', USAGE], value: '' };
  const r = await get(client, option);
  const msg = messageOf(r);
  if (msg !== undefined && r.error) return { lines: [msg], value: '' };
  const s = (k: string) => String(r[k] ?? '');
  switch (option) {
    case 'db': {
      const dbs = Object.entries(r).filter(([k]) => k !== 'current' && k !== 'database');
      return { lines: [`Database ${s('current')} set.`, 'To change do: dbset db prefix, one of:', dbs.map(([p, name]) => `${String(name)} = ${p}`).join(' ') + ' '], value: '' };
    }
    case 'bm':
      return { lines: [`Benchmark set to ${s('benchmark')}`], value: '' };
    case 'dict': {
      const db = await get(client, 'db');
      return { lines: [`Dictionary Settings for ${String(db['current'] ?? '')}`, ...pdict(r as { [k: string]: DictValue }, 2)], value: '' };
    }
    case 'generic':
      return { lines: ['Generic Dictionary Settings', ...pdict(r as { [k: string]: DictValue }, 2)], value: '' };
    case 'script':
      return { lines: [s('script')], value: '' };
    case 'vuconf':
      return { lines: Object.entries(r).map(([k, v]) => `${k} = ${String(v)}`), value: '' };
    case 'vucreated':
      return { lines: [`${s('Virtual Users created')} Virtual Users created`], value: '' };
    case 'vustatus': {
      const text = s('Virtual User status');
      return { lines: text === 'No Virtual Users found' ? [text] : pdict(pairsOf(text), 1), value: '' };
    }
    case 'vucomplete':
      return { lines: [], value: s('Virtual Users complete') };
    case 'datagen':
      return {
        lines: [`Data Generation set to build a ${s('schema')} schema for ${s('database')} with ${r['warehouses'] !== undefined ? `${s('warehouses')} warehouses` : `${s('scale_factor')} scale factor`} with ${s('vu')} virtual users in ${s('directory')}`],
        value: '',
      };
    case 'tcconf':
      return { lines: pdict(r as { [k: string]: DictValue }, 2), value: '' };
  }
  return { lines: [USAGE], value: '' };
}
