import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, defaultDict, keyName, SECTIONS } from '../dist/routes/hammerdb/dicts.js';
import { mappingOf } from '../dist/routes/hammerdb/keymap.js';
import { keyRule } from '../dist/routes/hammerdb/keyrules.js';
import { suffixOf } from '../dist/routes/hammerdb/settings.js';
import { makeApp, type SledgeApp } from './helpers.js';

/**
 * Every key of every database's dict is honoured or refused: mapped onto a
 * Sledge field (its value must convert), or accepted only at HammerDB's
 * default (or a value that changes nothing in Sledge) and refused otherwise
 * with the reason. Nothing is stored and ignored.
 */

/** Keys whose every value changes nothing in Sledge (the reason is in keyrules.ts). */
const ANY_VALUE = new Set(['mysql_ssl_windows_capath', 'maria_ssl_windows_capath']);

describe('every HammerDB dict key is honoured or refused', () => {
  let s: SledgeApp;
  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
  });

  const diset = async (section: string, key: string, value: string) => {
    const r = await s.app.inject({ method: 'POST', url: '/diset', payload: JSON.stringify({ dict: section, key, value }) });
    return JSON.parse(r.body) as { success?: { message: string }; error?: { message: string } };
  };

  it('maps each key or gives it a rule, and diset follows it', async () => {
    let mapped = 0;
    let ruled = 0;
    for (const d of DATABASES) {
      await s.app.inject({ method: 'POST', url: '/dbset', payload: JSON.stringify({ db: d.prefix }) });
      const dict = defaultDict(d.prefix);
      for (const section of SECTIONS) {
        for (const [key, def] of Object.entries(dict[section] ?? {})) {
          const where = `${d.prefix} ${section}:${key}`;
          const mapping = mappingOf(d.prefix, d.engine, key);
          const rule = keyRule(d.prefix, suffixOf(d.prefix, key));
          // The driver key (mapped) is checked by diset itself: test or timed, and it clears the script.
          if (key === keyName(d.prefix, 'driver')) continue;
          // connect_pool is read by vurun itself (the stored pool file) and has a rule for its values.
          expect([mapping, rule].filter(Boolean).length, `${where}: exactly one of mapped, ruled`).toBe(1);
          const bogus = await diset(section, key, '__not_a_value__');
          if (mapping) {
            mapped++;
            if (mapping.conv === 'string') expect(bogus.success?.message, where).toMatch(/^Changed /);
            else expect(bogus.error?.message, where).toMatch(/^Value __not_a_value__ for .* must be /);
          } else {
            ruled++;
            if (ANY_VALUE.has(key)) expect(bogus.success?.message, where).toMatch(/^Changed /);
            else expect(bogus.error?.message, where).toMatch(new RegExp(`^Value (__not_a_value__|\\*{8}) for ${section}:${key} is not supported: .+; ${key} must be `));
            // The default is accepted (and here unchanged).
            expect((await diset(section, key, def)).success?.message, where).toMatch(/^(Changed|Value .* is the same as existing value)/);
          }
          // Put the default back for the next key.
          await diset(section, key, def);
        }
      }
    }
    expect(mapped).toBeGreaterThan(150);
    expect(ruled).toBeGreaterThan(40);
  });
});
