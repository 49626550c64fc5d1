#!/usr/bin/env bash
# `pnpm install-cli`: puts `sledge` and `hammerdbcli` on your PATH, so they work
# from any directory (HammerDB's .sh drivers call `hammerdbcli auto x.tcl` from
# their own). Writes two small wrappers into $SLEDGE_BIN_DIR (default
# ~/.local/bin) that run this checkout's built CLI with the node that ran this.
# Builds the CLI first when it is not built. Run it again after moving the checkout.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
bin="${SLEDGE_BIN_DIR:-$HOME/.local/bin}"
node="$(command -v node)"
if [ ! -f "$repo/apps/cli/dist/main.js" ]; then
  echo "building the CLI (first time)..." >&2
  (cd "$repo" && npx turbo run build --filter=@sledge/cli... --output-logs=errors-only >&2)
fi
mkdir -p "$bin"
for name in sledge hammerdbcli; do
  tmp="$bin/.$name.$$"
  printf '#!/bin/sh\n# Sledge %s, installed from %s by scripts/install-cli.sh\nexec "%s" "%s/apps/cli/bin/%s.js" "$@"\n' "$name" "$repo" "$node" "$repo" "$name" > "$tmp"
  chmod 755 "$tmp"
  mv -f "$tmp" "$bin/$name"
  echo "installed $bin/$name"
done
case ":$PATH:" in
  *":$bin:"*) ;;
  *) echo "note: $bin is not on your PATH; add it: export PATH=\"$bin:\$PATH\"" ;;
esac
