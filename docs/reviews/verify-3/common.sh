# Shared setup: ROOT is the tether checkout under test (default: the current directory, the
# project root; read only:
# --frozen keeps deno from touching its lock file).
set -eu
ROOT=${ROOT:-$(pwd)}
T=$(mktemp -d /tmp/rev-f1-XXXXXX)
trap 'rm -rf "$T"' EXIT
g() { git -c user.name=t -c user.email=t@t "$@"; }
run() { local entry=$1; shift; deno run --frozen --quiet --no-prompt --allow-run=git "$ROOT/$entry" "$@"; }
echo "tether under test: $ROOT at $(git -C "$ROOT" rev-parse --short HEAD)"
