#!/usr/bin/env bash
# Finding 14: the harness form ("worktree_path: harness") promises a match only in a
# linked worktree of the parent's repository. verify learns the parent's repository by
# resolving parent_cwd; when that directory cannot be resolved any more (here the parent
# ran in a scratch subdirectory it removed after dispatch; a sandbox that does not mount
# the parent's path is the same), the check is skipped (sameRepository undefined) instead
# of failing, and a linked worktree of ANOTHER repository (a `git clone --shared`, as a
# harness may make one) verifies as environment-verified. Work done there never reaches
# gate --worktree in the parent.
. "$(dirname "$0")/common.sh"
setup
mkdir "$P/scratch"; echo "notes" > "$P/scratch/n.txt"
(cd "$P/scratch" && echo task | handshake wrap --workspace-mode worktree) > "$WORK/h.md" || exit 1
SEED=$(sed -n 's/^seed: //p' "$WORK/h.md")
# --- a harness makes the child's worktree in a clone, carrying the exact state ---
git clone -q --shared "$P" "$WORK/clone"
git -C "$WORK/clone" worktree add -q --detach "$WORK/cw" "$(git -C "$P" rev-parse HEAD)"
git -C "$WORK/cw" read-tree --reset -u "$SEED^{tree}"; git -C "$WORK/cw" read-tree "$SEED^2^{tree}"
(cd "$WORK/cw/scratch" && verify < "$WORK/h.md" | tail -2); echo "verify with the parent's cwd present (foreign worktree expected)"
rm -r "$P/scratch"                                     # the parent tidies its scratch dir
(cd "$WORK/cw/scratch" && verify < "$WORK/h.md"); echo "verify exit: $?"
# A fixed tether fails closed: when the parent's repository cannot be resolved from
# parent_cwd (or better: when the common git dir the block could carry differs), the
# harness form is a mismatch ("foreign worktree" / "cannot confirm the repository"),
# never environment-verified.
