#!/usr/bin/env bash
# Finding 3: a nested repository the child creates is read as a gitlink (the commit its
# HEAD names). gate accepts it and reports "landed: ... sub", but a gitlink lands as an
# empty directory: the commit lives only in the child's sub/.git, and the clean-up then
# force-removes the worktree, so the child's work in sub/ is gone everywhere. Spawn refuses
# a nested repository in the parent ("a worktree cannot carry it"); land does not.
. "$(dirname "$0")/common.sh"
setup
spawn c1
C=$P/wt/c1
SEED=$(sed -n "s/^seed: //p" "$WORK/c1.md")
# --- the child's doing (an honest child could do this too): a nested repo with work
git init -q "$C/sub"; echo "important child work" > "$C/sub/work.txt"
git -C "$C/sub" add -A; git -C "$C/sub" commit -q -m work
SUBCOMMIT=$(git -C "$C/sub" rev-parse HEAD)
echo new > "$C/n.txt"
(cd "$P" && result n.txt sub | gate --worktree "$C" --seed "$SEED" --land); echo "gate exit: $?"
echo "parent sub/: $(ls -A "$P/sub" 2>&1 | tr '\n' ' ')(empty)"
echo "child worktree: $(test -d "$C" && echo kept || echo removed)"
echo "sub's commit in the parent's object store: $(git -C "$P" cat-file -t "$SUBCOMMIT" 2>&1)"
# A fixed tether refuses, as spawn does, a child whose changed paths include a gitlink
# that no submodule config describes (or any gitlink whose commit is not in the shared
# object store): exit 1, the path named, the worktree kept. It never reports a gitlink
# as landed when only an empty directory was written.
