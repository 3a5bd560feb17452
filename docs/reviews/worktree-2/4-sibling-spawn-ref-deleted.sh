#!/usr/bin/env bash
# Finding 4: refs are shared by all worktrees, and gate requires the spawn ref
# refs/tether/spawned/<12 hex>-<n> to point at --seed. Child 1 deletes child 2's spawn ref
# (one `git update-ref -d`, no checkout of the sibling's branch as in the documented
# limit); child 2's honest work can then not be judged or landed (exit 3), although the
# parent holds the seed id itself. The same happens when child 1 moves the ref elsewhere.
. "$(dirname "$0")/common.sh"
setup
(cd "$P" && echo task | handshake wrap --worktree "$P/wt" --count 2 --json) > "$WORK/spawn.json" || exit 1
SEED=$(sed -n 's/.*"seed": *"\([0-9a-f]*\)".*/\1/p' "$WORK/spawn.json" | head -1)
C1=$P/wt/1; C2=$P/wt/2
echo honest > "$C2/h.txt"
# --- child 1's doing
git -C "$C1" update-ref -d "refs/tether/spawned/${SEED:0:12}-2"
(cd "$P" && result h.txt | gate --worktree "$C2" --seed "$SEED" --land); echo "gate on honest child 2 exit: $?"
# A fixed tether keeps the record of what it spawned where the child cannot write (or
# takes the parent's --seed plus the parent's worktree list as enough, and treats a
# missing spawn ref as a warning), so a sibling cannot block an honest child; at least
# docs/worktree.md's known limits should name this, with the recovery command.
