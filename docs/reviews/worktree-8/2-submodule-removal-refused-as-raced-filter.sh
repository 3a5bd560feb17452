#!/usr/bin/env bash
# Finding 2 (false halt): a correct child that removes a submodule (`git rm sm`, a routine
# change) cannot be landed, and gate blames the shared .git. The merged tree lacks the
# gitlink sm; git's read-tree -m -u drops the entry but leaves the populated submodule
# directory in the parent (rmdir of a non-empty directory only warns), so the read-back
# finds a repository where the tree has nothing, and the land is undone with "the shared
# .git changed during the land: a filter or conversion ran ... check the shared .git, then
# land again": a land again fails the same way, every time, with nothing in the .git to
# find. (The undo itself is right here: everything reads back as before.)
# Run from the project root: bash docs/reviews/worktree-8/2-submodule-removal-refused-as-raced-filter.sh
. "$(dirname "$0")/common.sh"
setup
with_submodule
spawn c; C=$P/wt/c
# The child's honest change: drop the submodule, add a file.
git -C "$C" rm -q sm; printf 'x\n' > "$C/n.txt"
for run in 1 2; do
  echo "--- land $run:"
  (cd "$P" && result n.txt sm .gitmodules | gate --worktree "$C" --seed "$SEED" --land 2>&1) | cut -c1-420
  echo "gate exit: ${PIPESTATUS[0]}"
done
echo "--- the shared config names no filter or driver:"
git -C "$P" config --get-regexp '^(filter|merge)\.' || echo "(none)"
# Reproduced: both lands exit 3 with "a filter or conversion ran" although nothing in the
# .git changed. A fixed land either refuses a landing path that is a gitlink in the
# parent's raw tree up front (as `nested` for the child's side: exit 1, "land the
# submodule's removal by hand"), or expects the directory git leaves there; the message of
# a read-back mismatch should not name a cause it did not establish.
