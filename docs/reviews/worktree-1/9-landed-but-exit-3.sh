#!/usr/bin/env bash
# Finding 9: the land writes the parent's files first and removes the child's worktree
# after; a failure in the removal turns the whole report into "Cannot evaluate" (exit 3,
# nothing on stdout, no verdict, no list of landed paths), although the child's changes
# are already in the parent. The child makes the removal fail by rewriting the `gitdir`
# file of its own administrative directory (git then no longer knows the worktree by its
# path). A parent that trusts exit 3 ("nothing happened") now has unreviewed edits.
. "$(dirname "$0")/common.sh"
setup
spawn c1
C=$P/wt/c1
# --- the child's doing ---
echo "child change" >> "$C/a.txt"
GD=$(git -C "$C" rev-parse --path-format=absolute --git-dir)
echo "$WORK/elsewhere/.git" > "$GD/gitdir"
# --- the parent lands ---
SEED=$(sed -n "s/^seed: //p" "$WORK/c1.md")   # the parent's own record: the block it sent
(cd "$P" && result a.txt | gate --json --worktree "$C" --seed "$SEED" --land); echo "gate exit: $?"
echo "parent a.txt now:"; cat "$P/a.txt"
# A fixed tether either removes the worktree by its registration (the admin dir name it
# recorded at spawn) or, when the removal fails after a land, still reports the land:
# exit 0 with the verdict, "landed: 1 path: a.txt" and a warning that the worktree was
# kept; it never says "could not evaluate" about a land it performed.
