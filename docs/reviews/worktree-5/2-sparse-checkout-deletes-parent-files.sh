#!/usr/bin/env bash
# Finding 2: the land's `git read-tree -m -u` (src/worktree/land.ts) honours
# core.sparseCheckout from the shared config and the main worktree's sparse patterns,
# which live in the common dir (<common>/info/sparse-checkout). LAND_CONFIG pins
# core.autocrlf, core.eol and core.hooksPath, not sparse checkout. A child writes:
#   git config --file <common>/config core.sparseCheckout true
#   echo /f.txt > <common>/info/sparse-checkout
# The parent lands the child's one-line change to f.txt. read-tree applies the patterns to
# the land's scratch index (which holds the parent's whole working tree) and removes from
# the parent's disk every file outside them: a.txt, b.txt with its unstaged edit,
# .gitignore, and the untracked u.txt (only the ignored secret.env, never in the scratch
# index, survives). No code of the child's runs, nothing
# is predicted or raced. gate prints "verdict: accept" / "landed: 1 path: f.txt", exit 0.
# The unstaged edit and the untracked file exist nowhere but as unreferenced blobs that
# gc will prune.
. "$(dirname "$0")/common.sh"
setup; with_f
spawn c1; C=$P/wt/c1
echo "child line" >> "$C/f.txt"
common_of "$C"
git -C "$C" config --file "$COMMON/config" core.sparseCheckout true
printf '/f.txt\n' > "$COMMON/info/sparse-checkout"
echo "--- the parent's checkout before the land:"; (cd "$P" && ls -A | grep -v '^\.git$' | tr '\n' ' '); echo
land_report "$C" f.txt
echo "--- the parent's checkout after:"; (cd "$P" && ls -A | grep -v '^\.git$' | tr '\n' ' '); echo
echo "--- git status --short in the parent (before the land: \" M b.txt\", \"?? u.txt\"):"
git -C "$P" -c core.sparseCheckout=false status --short
# A fixed tether lands with -c core.sparseCheckout=false (and core.sparseCheckoutCone=false;
# in general: every checkout-affecting setting pinned, or read-tree run in a git dir only
# the parent wrote), so the land changes f.txt only: a.txt, b.txt (with "unstaged"),
# .gitignore and u.txt stay on disk, and status shows " M b.txt", " M f.txt", "?? u.txt".
