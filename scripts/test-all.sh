#!/usr/bin/env bash
# `pnpm test`: every test of every package and the browser suite (docs/testing.md, "Tiers").
#   1. unit     - every package's unit tier, two packages at a time;
#   2. slow     - the sqlite, live and fault tiers, side by side (files in
#                 parallel within a package, longest first, four packages at a time);
#   3. solo     - files that need the machine to themselves, one at a time;
#   4. e2e      - the browser suite, four files at a time (e2e/package.json).
# Every stage runs even when an earlier one failed (so one run shows every
# failure); the exit status is non-zero when any stage failed. Prints how long
# each stage took.
set -uo pipefail
cd "$(dirname "$0")/.."
declare -a names=() secs=() codes=()
# Each stage's output is also kept, so the summary at the end can name the
# failing files and tests (CI shows only the tail of a long log).
LOGDIR="$(mktemp -d "${TMPDIR:-/tmp}/sledge-test-all.XXXXXX")"
stage() {
  local name="$1"; shift
  local t0=$SECONDS
  printf '\n== test stage %s: %s\n' "$name" "$*"
  "$@" 2>&1 | tee "$LOGDIR/$name.log"
  local rc=${PIPESTATUS[0]}
  names+=("$name"); secs+=($((SECONDS - t0))); codes+=("$rc")
}
stage build npx turbo run build --output-logs=hash-only
if [ "${codes[0]}" != 0 ]; then echo "build failed: no tests run"; exit 1; fi
stage unit npx turbo run test:unit --concurrency=2 --continue
stage slow npx turbo run test:slow --concurrency=4 --continue
stage solo npx turbo run test:solo --concurrency=1 --continue
stage e2e pnpm --filter @sledge/e2e test
printf '\n== test stages\n'
fail=0
for i in "${!names[@]}"; do
  printf '%-6s %5ss  %s\n' "${names[$i]}" "${secs[$i]}" "$([ "${codes[$i]}" = 0 ] && echo passed || echo "FAILED (exit ${codes[$i]})")"
  [ "${codes[$i]}" = 0 ] || fail=1
done
if [ "$fail" = 1 ]; then
  # The failing tests, named, without colour codes: vitest's "FAIL file > test"
  # and "× test" lines, and turbo's failed task names.
  printf '\n== what failed (logs in %s)\n' "$LOGDIR"
  for i in "${!names[@]}"; do
    [ "${codes[$i]}" = 0 ] && continue
    sed -E 's/\x1b\[[0-9;]*m//g' "$LOGDIR/${names[$i]}.log" \
      | grep -E '(^|[[:space:]])(FAIL|×|✗) |ERR_|Failed:' \
      | grep -vE '^\s*$' | sort -u | head -60 | sed "s/^/[${names[$i]}] /"
  done
fi
exit $fail
