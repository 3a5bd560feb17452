#!/usr/bin/env bash
# Finding 2: gate --land builds its scratch index at <child git dir>/tether-land-index, a
# path inside the child's own administrative directory. The child plants a symlink there;
# git's lockfile code follows it, so the land rewrites whatever the link names: the
# parent's real index (staged work gone, every untracked file staged), or any file the
# parent's user can write (here $WORK/victim.txt, outside every working tree).
. "$(dirname "$0")/common.sh"
setup
spawn c1
C=$P/wt/c1
echo "parent index before:"; git -C "$P" status --short
echo "victim" > "$WORK/victim.txt"
# --- the child's doing, inside its worktree ---
echo "child change" >> "$C/a.txt"
GD=$(git -C "$C" rev-parse --path-format=absolute --git-dir)
ln -s "$P/.git/index" "$GD/tether-land-index"
ln -s "$WORK/victim.txt" "$GD/tether-land-index-staged"
# --- the parent lands ---
SEED=$(sed -n "s/^seed: //p" "$WORK/c1.md")   # the parent's own record: the block it sent
(cd "$P" && result a.txt | gate --worktree "$C" --seed "$SEED" --land); echo "gate exit: $?"
echo "parent index after (was: M a.txt staged, b.txt unstaged, u.txt untracked):"
git -C "$P" status --short
echo "victim.txt now starts with: $(head -c 4 "$WORK/victim.txt" | od -An -c)"
# A fixed tether never lets a path the child controls name a file the parent's git
# writes: the land's scratch index lives in a fresh private name the parent chooses (as
# captureState does by default, objects/tmp_tether_seed_<uuid>), so the parent's index
# stays as it was (a.txt staged, b.txt unstaged, u.txt untracked) and victim.txt still
# reads "victim".
