#!/usr/bin/env bash
# Finding 10: the worktree-2 minor fix resolves DIR's real path before the "inside the
# parent's tree" check, but first runs resolve() on it, which folds ".." lexically. With
# DIR = $WORK/elsewhere/link/../kids/c1 and link -> $P/src, the check sees
# $WORK/elsewhere/kids/c1 (outside), while git worktree add creates $P/kids/c1 (the kernel
# resolves link/.. to $P). The spawn then fails with the misleading "git status ... differs
# from the parent's (submodules or filters?)", exit 3, and leaves the empty directory $P/kids
# in the parent (missingDirs used the same lexical path, so the rollback misses it).
. "$(dirname "$0")/common.sh"
setup
mkdir -p "$P/src" "$WORK/elsewhere"
echo x > "$P/src/f.txt"; git -C "$P" add src; git -C "$P" commit -q -m src
ln -s "$P/src" "$WORK/elsewhere/link"
(cd "$P" && echo task | handshake wrap --worktree "$WORK/elsewhere/link/../kids/c1" > /dev/null); echo "spawn exit: $?"
echo "--- left in the parent:"; ls -la "$P/kids" 2>&1
# A fixed tether resolves DIR without folding ".." first: the nearest existing ancestor is
# found by walking up the path as spelled (each step resolved by git, as realPath does), or
# rejects a DIR holding ".." after a component it did not resolve. Here: refused before
# anything is made, "... is inside the parent's working tree (its real path is
# "$P/kids/c1") and not ignored", exit 3, nothing left.
