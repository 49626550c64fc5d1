/**
 * The lines build-native.mjs prints when a native VU loop is not built: a
 * WARNING naming the engines whose virtual users then run in JavaScript, what
 * that costs in client CPU (measured, docs/benchmarks.md; the drivers' nativeVu
 * javascriptCost says the same in `sledge capabilities`), and the package to
 * install. A loop skipped on purpose (SLEDGE_PGVU/SLEDGE_MYVU=off) gets a
 * plain note instead.
 */
export const NATIVE_LOOPS = {
  pgvu: {
    engines: 'PostgreSQL',
    apt: 'libpq-dev',
    others: 'libpq-devel on Fedora/RHEL, libpq on Homebrew',
    cost: "node-postgres costs about 3.4x the native loop's client CPU per transaction",
  },
  myvu: {
    engines: 'MariaDB/MySQL',
    apt: 'libmariadb-dev',
    others: 'mariadb-connector-c-devel on Fedora/RHEL, mariadb-connector-c on Homebrew',
    cost: "mysql2 costs 2.4-6x the native loop's client CPU per transaction",
  },
};

/** One line: why `loop` ('pgvu' | 'myvu') is not built, what that costs, and what to install. */
export function loopWarning(loop, why, onPurpose = false) {
  const l = NATIVE_LOOPS[loop];
  if (onPurpose) return `note: native ${l.engines} VU loop not built (${why}); ${l.engines} virtual users run in JavaScript`;
  return (
    `WARNING: native ${l.engines} VU loop not built (${why}): ${l.engines} virtual users will run in JavaScript, where ${l.cost}. ` +
    `To fix: sudo apt-get install ${l.apt} (${l.others}), then pnpm --filter @sledge/worker-native build:native`
  );
}
