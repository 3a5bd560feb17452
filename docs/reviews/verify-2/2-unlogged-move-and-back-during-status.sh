#!/usr/bin/env bash
# verify pairs a status taken at another HEAD with the HEAD it reports when the branch ref is
# moved without a reflog entry while status runs and moved back before status ends.
# Pre-existing (the same in 338658b, before this session's changes): run with OLD=1 to use
# `git archive 338658b`.
. "$(dirname "$0")/common.sh"
cd "$T" && g init -q -b main r && cd r
echo a >a.txt && g add a.txt && g commit -qm c1 && C1=$(git rev-parse HEAD)
echo b >a.txt && g commit -qam c2 && C2=$(git rev-parse HEAD)
# The block: HEAD C1 on main, clean.
g reset -q --hard "$C1"
run handshake.ts >"$T/block"
# The tree now: HEAD C1, a.txt = b staged (not the block's tree: fingerprint differs).
echo b >a.txt && g add a.txt
echo "status now (not the block's):"; git status --porcelain
# While status runs, main points at C2 (no reflog entry: the ref file renamed over), then back.
shim 'case " $* " in *" status "*)
  printf "%s\n" '"$C2"' > .git/m.new && mv .git/m.new .git/refs/heads/main
  "$REAL" "$@"; rc=$?
  printf "%s\n" '"$C1"' > .git/m.new && mv .git/m.new .git/refs/heads/main
  exit $rc ;; esac
exec "$REAL" "$@"'
ENTRY=verify.ts
if [ "${OLD:-}" = 1 ]; then mkdir "$T/old" && (cd "$ROOT" && git archive 338658b) | tar -x -C "$T/old" && ROOT="$T/old"; fi
set +e
PATH="$T/shim:$PATH" run "$ENTRY" <"$T/block"
echo "verify exit: $?"
# A correct tether would print the mismatch (exit 1) on parent_dirty_fingerprint. It
# prints `environment-verified` (exit 0): the status was taken at C2.
