#!/usr/bin/env bash
# gate --since reads the live HEAD and `git status` as two separate moments, with nothing
# that shows HEAD held still between them. A commit landing after the HEAD read and before
# status (a sibling, or a job the child left running) hides every change it commits: status
# shows them clean, and the trees are compared at the HEAD read before the commit. Here the
# child edits app.ts (claimed) and deletes lib.ts (not claimed); both are committed between
# the two reads: gate accepts with observed_unclaimed [] although HEAD now drops lib.ts.
# Pre-existing: 338658b (HEAD read strictly before status) does the same (printed second).
. "$(dirname "$0")/common.sh"
cd "$T" && g init -q -b main r && cd r
echo hello >app.ts && echo lib >lib.ts && g add . && g commit -qm init
snap=$(echo "Refactor app.ts" | run handshake.ts wrap --context | sed -n 's/^snapshot: //p')
echo edited >app.ts && rm lib.ts # the child's work
echo '{"ok":true,"summary":"edited app.ts","files_changed":["app.ts"],"errors":[],"evidence":[{"kind":"file","ref":"app.ts","ok":true}]}' >"$T/result.json"
# The shim: gate's HEAD read answers, then the commit lands; status waits a little so it
# starts after the commit (it runs beside the HEAD read since 9db3a97).
shim 'case " $* " in
*" rev-parse --verify -q HEAD"*) "$REAL" "$@"; rc=$?
  if [ ! -e "'"$T"'/done" ]; then : >"'"$T"'/done"; "$REAL" -c user.name=s -c user.email=s@s commit -qam sibling >/dev/null; fi
  exit $rc ;;
*" status "*) sleep 0.5 ;; esac
exec "$REAL" "$@"'
base=$(git rev-parse HEAD)
summ() { deno eval -q 'const r=JSON.parse(await new Response(Deno.stdin.readable).text()); console.log(`verdict=${r.verdict} confirmed=${JSON.stringify(r.changes?.confirmed)} observed_unclaimed=${JSON.stringify(r.changes?.observed_unclaimed)} reasons=${JSON.stringify(r.reasons)}`)'; }
PATH="$T/shim:$PATH" run gate.ts --since "$snap" --json <"$T/result.json" | summ
echo "HEAD moved: $(git log --oneline -1 --format=%s); lib.ts in HEAD: $(git ls-tree --name-only HEAD lib.ts | wc -l)"
# The same against 338658b.
mkdir "$T/old" && (cd "$ROOT" && git archive 338658b) | tar -x -C "$T/old"
g reset -q --hard "$base" && echo edited >app.ts && rm lib.ts && rm -f "$T/done"
ROOT="$T/old" PATH="$T/shim:$PATH" run gate.ts --since "$snap" --json <"$T/result.json" | summ
# A correct tether lists lib.ts in observed_unclaimed (or refuses: HEAD moved during gate).
# Controls: no shim (lib.ts reported), and the same commit made before gate starts (reported).
g reset -q --hard "$base" && echo edited >app.ts && rm lib.ts
echo "control, no commit:     $(run gate.ts --since "$snap" --json <"$T/result.json" | summ)"
g commit -qam before-gate
echo "control, commit before: $(run gate.ts --since "$snap" --json <"$T/result.json" | summ)"
