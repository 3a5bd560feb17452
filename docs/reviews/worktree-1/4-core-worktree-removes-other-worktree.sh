#!/usr/bin/env bash
# Finding 4: the child sets core.worktree in its own config.worktree (after
# `git sparse-checkout set`, plain git in its own worktree) to another linked worktree of
# the repository: here a human's feature worktree with uncommitted work. gate then takes
# that directory for the child's top level: it judges and lands the feature worktree's
# content into the parent (reverting the parent's own uncommitted work, which the feature
# worktree lacks), and then runs `git worktree remove --force --force` on it, deleting
# the human's worktree with all its uncommitted and ignored files.
. "$(dirname "$0")/common.sh"
setup
git -C "$P" worktree add -q -b feature "$WORK/feature"
F=$WORK/feature
echo "a week of uncommitted work" > "$F/design.md"
echo "local notes" > "$F/notes.env"   # ignored
spawn c1
C=$P/wt/c1
# --- the child's doing, with git in its own worktree ---
git -C "$C" sparse-checkout set --no-cone '/*'
git -C "$C" config --worktree core.worktree "$F"
# the child claims what gate will observe: the seed -> the feature worktree's files (the
# feature worktree lacks the parent's uncommitted work, so that counts as "changed")
SEED=$(sed -n "s/^seed: //p" "$WORK/c1.md")   # the parent's own record: the block it sent
(cd "$P" && result a.txt b.txt design.md u.txt | gate --worktree "$C" --seed "$SEED" --land); echo "gate exit: $?"
echo "feature worktree: $(test -d "$F" && echo present || echo DELETED)"
git -C "$P" worktree list
echo "parent design.md: $(cat "$P/design.md" 2>&1)"
echo "parent's own uncommitted work: a.txt ends '$(tail -1 "$P/a.txt")' (was 'staged'), b.txt ends '$(tail -1 "$P/b.txt")' (was 'unstaged'), u.txt $(test -e "$P/u.txt" && echo present || echo DELETED)"
# A fixed tether takes the child's top level from what it recorded at spawn (the v2
# block's worktree_path, the admin dir it created) and refuses a worktree whose git
# reports another top level; it never removes a worktree it did not create. Expected:
# gate exit 3 ("not the worktree handshake made"), the feature worktree intact, the
# parent unchanged.
