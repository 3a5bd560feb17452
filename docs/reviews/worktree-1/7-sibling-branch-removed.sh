#!/usr/bin/env bash
# Finding 7: gate takes the child's branch from the child's own HEAD (`rev-parse
# --abbrev-ref HEAD`) and, after a land, deletes refs/heads/<that branch> and the matching
# spawn ref. Child c1 points its HEAD at sibling c2's branch (same seed, so the gate still
# finds a seed); landing c1 then deletes c2's branch (with c2's commit on it) and c2's
# spawn ref, so c2's own gate can no longer evaluate it at all.
. "$(dirname "$0")/common.sh"
setup
(cd "$P" && handshake --worktree "$P/wt" --count 2 > "$WORK/batch.md") || exit 1
SEED=$(sed -n "s/^seed: //p" "$WORK/batch.md" | head -1)   # the parent's own record
C1=$P/wt/1; C2=$P/wt/2
B2=$(git -C "$C2" rev-parse --abbrev-ref HEAD)
# --- the honest sibling c2 commits its work ---
echo "c2 work" > "$C2/c2.txt"; git -C "$C2" add c2.txt; git -C "$C2" commit -q -m "c2 work"
# --- child c1's doing ---
echo "c1 work" > "$C1/c1.txt"
git -C "$C1" symbolic-ref HEAD "refs/heads/$B2"
git -C "$P" branch --list "tether/*" -v
(cd "$P" && result c1.txt | gate --worktree "$C1" --seed "$SEED" --land >/dev/null); echo "gate on c1 exit: $?"
echo "c2's branch $B2: $(git -C "$P" rev-parse -q --verify "refs/heads/$B2" || echo DELETED)"
echo "c2's spawn ref: $(git -C "$P" rev-parse -q --verify "refs/tether/spawned/${B2#tether/}" || echo DELETED)"
(cd "$P" && result c2.txt | gate --worktree "$C2" --seed "$SEED" --land); echo "gate on c2 exit: $?"
# A fixed tether identifies a child by what the parent recorded at spawn (the worktree's
# path and branch in the v2 block / the worktree's registration), refuses a child whose
# HEAD names another child's branch, and deletes only the branch it created for that
# worktree. Expected: c2's branch and spawn ref survive and c2 lands c2.txt.
