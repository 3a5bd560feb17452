#!/usr/bin/env bash
# Finding 1: the land's "nested" refusal looks only at the child's side (nestedChanged: a
# landing path that is a gitlink in the child's capture). A child that turns the parent's
# submodule (a gitlink; spawn carries it as an empty directory) into a plain file passes
# it: nothing else looks at the parent's side, and git's read-tree -m -u, going from a
# gitlink to a file at the same path, counts a gitlink as always up to date and removes
# the whole directory (entry.c: remove_subtree) before it writes the file. The parent's
# nested repository goes, with its .git directory (commits that exist nowhere else), its
# uncommitted edits and its untracked files; gate prints accept, landed, exit 0, and the
# read-back agrees (the path holds the file the tree names).
# Run from the project root: bash docs/reviews/worktree-8/1-file-over-parent-submodule-deletes-it.sh
. "$(dirname "$0")/common.sh"
setup
# The parent's own nested repository, tracked as a gitlink (an embedded repository added
# with `git add`; `git submodule add` gives the same gitlink, see the second run below).
git init -q -b main "$P/sm"
printf 'v1\n' > "$P/sm/s.txt"; git -C "$P/sm" add -A; git -C "$P/sm" commit -q -m one
printf 'v2\n' > "$P/sm/s.txt"; git -C "$P/sm" commit -q -am "two: exists only in sm/.git"
git -C "$P" -c advice.addEmbeddedRepo=false add sm 2>/dev/null; git -C "$P" commit -q -m "sm"
spawn c; C=$P/wt/c # (a submodule with uncommitted changes is refused by spawn: its status differs)
# While the child works, the parent goes on working in its submodule (no new commit there).
printf 'uncommitted work\n' >> "$P/sm/s.txt"
printf 'notes\n' > "$P/sm/untracked.txt"
echo "--- the child's sm (spawn carries a gitlink as an empty directory):"
ls -la "$C/sm" | tail -n +2
# The child's change: sm becomes a plain file. It claims it, with file evidence.
rmdir "$C/sm"; printf 'a file now\n' > "$C/sm"
echo "--- the parent's sm before the land:"
(cd "$P/sm" && git log --oneline | cat && ls -A)
land_report "$C" sm
echo "--- the parent's sm after the land:"
ls -la "$P/sm" 2>&1 | head -3
[ -d "$P/sm" ] || echo "GONE: sm/.git (2 commits, one only there), sm/s.txt's uncommitted edit, sm/untracked.txt"

echo "=== second run: a submodule made by git submodule add (its repository absorbed in .git/modules)"
mv "$P" "$WORK/p1"; setup
with_submodule
spawn c; C=$P/wt/c
printf 'uncommitted work\n' >> "$P/sm/s.txt"; printf 'notes\n' > "$P/sm/untracked.txt"
rmdir "$C/sm"; printf 'a file now\n' > "$C/sm"
land_report "$C" sm
[ -d "$P/sm" ] || echo "GONE: the submodule's work tree (sm/s.txt's uncommitted edit, sm/untracked.txt); its commits survive in .git/modules/sm"

echo "=== third run: a link over the submodule, and a second submodule removed (finding 2), so the land is undone"
mv "$P" "$WORK/p2"; rm -rf "$WORK/upstream"; setup; with_submodule
git -C "$P" -c protocol.file.allow=always submodule add -q "$WORK/upstream" sm2; git -C "$P" commit -q -m sm2
spawn c; C=$P/wt/c
printf 'uncommitted work\n' >> "$P/sm/s.txt"
rmdir "$C/sm"; ln -s ../elsewhere "$C/sm"; git -C "$C" rm -q sm2
(cd "$P" && result .gitmodules sm sm2 | gate --worktree "$C" --seed "$SEED" --land 2>&1) | cut -c1-700
echo "gate exit: ${PIPESTATUS[0]}"
echo "--- the parent's sm after the undo: $(ls -A "$P/sm" | tr '\n' ' ')(empty: .git file and s.txt's edit gone)"
# Reproduced (all three runs): `verdict: accept`, `landed: 1 path: sm`, exit 0, and the parent's
# sm directory is gone, replaced by the child's file (run 3: the child's link). In run 3 the
# undo then leaves an empty directory and says "check sm by hand; as before the land they are
# in the tree …  (git cat-file blob …:PATH > PATH …)": wrong for a gitlink, and no tree holds
# the submodule's lost work.
# A fixed land refuses (exit 1, `refused` nested, nothing written) when a landing path is
# a gitlink in the parent's raw tree (parent.worktree) or in the merged base, not only in
# the child's capture; or it checks, before the checkout, that no landing path is a
# directory in the parent's work tree whose contents the tree does not account for.
