#!/usr/bin/env bash
# Finding 5: the worktree-2 finding 2 fix counts a commit as the child's when it is in
# worktree.commits (git rev-list <seed HEAD>..<child HEAD>). A child decides what that range
# holds: a merge commit with its own tree and any other commit as second parent brings that
# commit, and its history, into the range without changing a file. Child 1 does nothing but
# that, with honest child 2's commit, and cites child 2's commit as its evidence:
# "verified commit", "2 commits since", verdict accept, exit 0 ("landed: nothing"). The same
# works with any commit of another branch, made long before the spawn (gate --since would
# call that one preexisting by its date; --worktree no longer looks at dates).
. "$(dirname "$0")/common.sh"
setup
spawn_two
# honest child 2 does the work and commits it
echo "the real fix" > "$C2/fix.txt"; git -C "$C2" add fix.txt; git -C "$C2" commit -q -m fix
THEIRS=$(git -C "$C2" rev-parse HEAD)
# --- child 1's doing: no file changed, only a merge commit that keeps its own tree
M=$(git -C "$C1" commit-tree -p HEAD -p "$THEIRS" -m merge "HEAD^{tree}")
git -C "$C1" reset -q --soft "$M"
printf '{"ok":true,"summary":"all done, see my commit","files_changed":[],"errors":[],"evidence":[{"kind":"commit","ref":"%s","ok":true}]}' "$THEIRS" > "$WORK/r1.json"
(cd "$P" && gate --worktree "$C1" --seed "$SEED" --land < "$WORK/r1.json"); echo "gate on child 1 exit: $?"
# A fixed tether counts a commit as the child's only when it is reachable from the child's
# HEAD and from no other ref (git rev-list <child HEAD> --not <seed HEAD> plus every other
# branch and tether ref, siblings' included), and its own change (against its first parent)
# touches only paths among the child's changed paths; a commit brought in as a merge's
# second parent is "preexisting". Here: "No evidence item shows work done since spawn",
# reject, exit 1.
