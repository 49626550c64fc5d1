import { afterEach, describe, expect, it } from 'vitest';
import { dateText, rowsWithDateText } from './dates.js';

const tz = process.env['TZ'];
afterEach(() => {
  if (tz === undefined) delete process.env['TZ'];
  else process.env['TZ'] = tz;
});

describe('TPROC-H DATE values as text (issue 31 item 10e)', () => {
  for (const zone of ['America/Los_Angeles', 'Asia/Tokyo', 'UTC']) {
    it(`a library's Date of a DATE column is its YYYY-MM-DD text in TZ=${zone}`, () => {
      process.env['TZ'] = zone;
      // tedious (useUTC): UTC midnight; node-oracledb: the process's local midnight.
      expect(dateText(new Date(Date.UTC(1995, 2, 5)), 'utc')).toBe('1995-03-05');
      expect(dateText(new Date(1995, 2, 5), 'local')).toBe('1995-03-05');
      expect(dateText(new Date(Date.UTC(1998, 11, 1, 13, 4, 5, 60)), 'utc')).toBe('1998-12-01 13:04:05.060');
      expect(rowsWithDateText([[1, new Date(1995, 2, 5), 'x', null]], 'local')).toEqual([[1, '1995-03-05', 'x', null]]);
    });
  }
});
