#!/usr/bin/env bash
# `pnpm test`: every test of every package and the browser suite (docs/testing.md, "Tiers").
#   1. unit     - every package's unit tier, two packages at a time;
#   2. slow     - the sqlite, live and fault tiers, side by side (files in
#                 parallel within a package, four packages at a time);
#   3. solo     - files that need the machine to themselves, one at a time;
#   4. e2e      - the browser suite, two files at a time (e2e/package.json).
# Every stage runs even when an earlier one failed (so one run shows every
# failure); the exit status is non-zero when any stage failed. Prints how long
# each stage took.
set -uo pipefail
cd "$(dirname "$0")/.."
declare -a names=() secs=() codes=()
stage() {
  local name="$1"; shift
  local t0=$SECONDS
  printf '\n== test stage %s: %s\n' "$name" "$*"
  "$@"
  local rc=$?
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
exit $fail
