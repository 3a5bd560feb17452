#!/usr/bin/env bash
# F1 (high: changes not observed, correct child rejected): `gate --since` now takes the live
# `git status` and HEAD when it starts (early.ts), before it has read stdin. When the
# child's result arrives on a pipe (`child | gate --since S`, the natural way to gate a
# child a script runs), that "live" state is the tree before the child worked. Only the
# claimed paths are read later. Before 31b23fd the same command line read status and HEAD
# after stdin's end, when the child was done.
. "$(dirname "$0")/common.sh"
# (a) The child edits app.ts (claimed) and deletes lib.ts (not claimed), then prints its
# result: gate accepts and does not report lib.ts at all.
child_a() {
  sleep 2; echo edited > app.ts; rm lib.ts
  echo '{"ok":true,"summary":"edited app.ts","files_changed":["app.ts"],"errors":[],"evidence":[{"kind":"file","ref":"app.ts","ok":true}]}'
}
# (b) The child creates new.txt and claims it: "not observed", reject.
child_b() {
  sleep 2; echo new > new.txt
  echo '{"ok":true,"summary":"added new.txt","files_changed":["new.txt"],"errors":[],"evidence":[{"kind":"file","ref":"new.txt","ok":true}]}'
}
# (c) The same, the child commits new.txt: HEAD too was read before the commit.
child_c() {
  sleep 2; echo new > new.txt; git add new.txt; git commit -qm "add new.txt"
  echo '{"ok":true,"summary":"added new.txt","files_changed":["new.txt"],"errors":[],"evidence":[{"kind":"file","ref":"new.txt","ok":true}]}'
}
main=$(git rev-parse HEAD)
for c in a b c; do
  echo "== ($c) 31b23fd^:   $(child_$c | old_gate --since "$snap" --json | summ)"; git reset -q --hard "$main"; git clean -qfd
  echo "   ($c) this tree: $(child_$c | gate --since "$snap" --json | summ)"; git reset -q --hard "$main"; git clean -qfd
done
# This tree: (a) accept with observed_unclaimed [] although lib.ts is gone; (b) and (c)
# reject, "Claimed changes were not observed: \"new.txt\"", new.txt's file evidence not
# verified. 31b23fd^: (a) accept with observed_unclaimed ["lib.ts"]; (b), (c) accept,
# confirmed ["new.txt"].
# Expected of a correct tether: what 31b23fd^ prints. Read the live state after stdin has
# ended, or keep the early reads only when stdin was already complete when they started
# (a regular file: `Deno.fstatSync(0).isFile`), and redo them otherwise.
