#!/usr/bin/env bash
# F1 (false reject, missed changes): `gate --since` now takes the live `git status`, HEAD
# and the repository's reads when it starts (early.ts), before it has read stdin. When the
# child's result arrives on a pipe (`child | gate --since S`, the natural way to gate a
# child run by a script), gate's "live" status is the tree before the child worked: a
# file the child created and claims is "not observed" (reject), and the unclaimed change
# it made to a tracked file is not reported at all. Before 31b23fd the same line read
# status after stdin's end, when the child was done.
. "$(dirname "$0")/common.sh"
# The child: works for 2 s, then prints its result (its stdout is gate's stdin).
child() {
  sleep 2
  echo new > new.txt            # created, claimed, untracked
  echo edited > lib.ts          # tracked, changed, not claimed
  echo '{"ok":true,"summary":"added new.txt","files_changed":["new.txt"],"errors":[],"evidence":[{"kind":"file","ref":"new.txt","ok":true}]}'
}
reset() { rm -f new.txt; git checkout -q -- lib.ts; }
echo "== 31b23fd^ (old):"; child | old_gate --since "$snap" --json | summ; reset
echo "== this tree:";       child | gate --since "$snap" --json | summ; echo "exit=${PIPESTATUS[1]}"; reset
# Same with the child committing its file: HEAD too was read before the child's commit.
child_commits() {
  sleep 2
  echo new > new.txt; git add new.txt; git commit -qm "add new.txt"
  echo '{"ok":true,"summary":"added new.txt","files_changed":["new.txt"],"errors":[],"evidence":[{"kind":"file","ref":"new.txt","ok":true}]}'
}
echo "== this tree, child commits:"; child_commits | gate --since "$snap" --json | summ
# Old: accept, confirmed ["new.txt"], observed_unclaimed ["lib.ts"]. This tree: reject
# ("Claimed changes were not observed: \"new.txt\""), lib.ts missing from the report.
# Expected of a correct tether: what the old line printed. The live state must be read
# after the result has been read (stdin at EOF), or the early reads must be thrown away
# and redone when stdin did not end before they finished (e.g. start them early only when
# stdin is a regular file, not a pipe or a terminal).
