# Shared setup: ROOT is the tether checkout under test (default: the current directory; read only:
# --frozen keeps deno from touching its lock file).
set -eu
ROOT=${ROOT:-$(pwd)}
T=$(mktemp -d /tmp/rev-f1b-XXXXXX)
trap 'rm -rf "$T"' EXIT
g() { git -c user.name=t -c user.email=t@t "$@"; }
run() { local entry=$1; shift; deno run --frozen --quiet --no-prompt --allow-run=git "$ROOT/$entry" "$@"; }
echo "tether under test: $ROOT at $(git -C "$ROOT" rev-parse --short HEAD)"
# verdict LABEL [VAR=value ...] ENTRY: run tether's entry with the block on stdin, print the
# first line and the exit code.
verdict() {
  local label=$1; shift; local out rc
  set +e; out=$(env "$@" deno run --frozen --quiet --no-prompt --allow-run=git "$ROOT/verify.ts" <"$T/block" 2>&1); rc=$?; set -e
  printf '%-34s %s (exit %s)\n' "$label" "$(printf '%s\n' "$out" | head -1 | cut -c1-100)" "$rc"
}
