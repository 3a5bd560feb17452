# Shared setup for the verify-2 scripts: run from the project root.
set -eu
ROOT=$(pwd)
T=$(mktemp -d /tmp/review10-verify2-XXXXXX)
trap 'rm -rf "$T"' EXIT
REAL_GIT=$(command -v git)
g() { git -c user.name=t -c user.email=t@t "$@"; }
run() { # run <entry.ts> [args...]: the binary as shipped
  local entry=$1
  shift
  deno run --quiet --no-prompt --allow-run=git "$ROOT/$entry" "$@"
}
# shim <body>: a git first on PATH that runs <body> (sh, "$@" = git's args) around the real git.
shim() {
  mkdir -p "$T/shim"
  {
    echo '#!/bin/sh'
    echo "REAL='$REAL_GIT'"
    printf '%s\n' "$1"
  } >"$T/shim/git"
  chmod +x "$T/shim/git"
}
