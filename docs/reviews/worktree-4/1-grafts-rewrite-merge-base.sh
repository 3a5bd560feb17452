#!/usr/bin/env bash
# Finding 1: the land's merge base is chosen by commit ancestry, and the child can rewrite
# that ancestry with a graft file in the shared .git (info/grafts). git honours grafts
# even with GIT_NO_REPLACE_OBJECTS=1, and tether's land and heldPaths run merge-tree
# without the no-grafts/no-shallow environment (HISTORY_ENV) gate and coord use. The two
# commits the land makes before its merge have ids the child can compute in advance:
#   base   = commit-tree <merge base tree> (no parent, "tether land", fixed identity)
#   theirs = commit-tree <child's raw tree> -p base ("tether land", fixed identity)
# The merge base tree is the seed's tree with the record's entries at the changed paths,
# which the child knows (the record holds its own tree). Grafting base and theirs onto one
# commit M makes M the merge base: here M has the seed's tree, so the record is ignored.
# After --land --keep the parent takes the child's line out again (worktree-3 finding 8).
# The child then fixes a typo in line 1 of f.txt, adds m.txt and writes the grafts. The
# parent lands with the right --landed ID: "landed: 2 paths: f.txt, m.txt", exit 0, and
# the child's removed line is back. A path the child did not touch since the record is
# still safe (the merge wanting to change it is refused as "outside"); any path it touched
# again is not. Part (b): the same two lines of info/grafts with M = the parent's
# current content drop the parent's own edits in a file the child changed, on any land,
# record or not ("landed: 1 path: f.txt", exit 0, "parent line" gone). Not shown: a
# .git/shallow file naming theirs makes merge-tree fail ("refusing to merge unrelated
# histories"), so gate exits 3 where an accept verdict was due.
. "$(dirname "$0")/common.sh"
setup; with_f
spawn c1; C=$P/wt/c1
echo "child line" >> "$C/f.txt"
kept_land "$C" f.txt
grep -E "^(landed|land record)" "$WORK/first.txt"
echo "--- the parent reviews the landed line and takes it out again"
sed -i '/child line/d' "$P/f.txt"
# --- the child: a new change to f.txt (line 1), a new file, and, last, the grafts
sed -i '1s/.*/line 1 (typo fixed)/' "$C/f.txt"
echo m > "$C/m.txt"
(
  cd "$C"
  export GIT_INDEX_FILE=$WORK/base.idx            # the merge base tether will build
  git read-tree "$SEED^{tree}"
  git update-index --cacheinfo "100644,$(git rev-parse "$LANDED:f.txt"),f.txt"
  BT=$(git write-tree)
  export GIT_INDEX_FILE=$WORK/child.idx           # the child's tree as tether captures it
  git read-tree HEAD; git add -A; CT=$(git write-tree)
  BASE=$(fixed git commit-tree -m "tether land" "$BT")
  THEIRS=$(fixed git commit-tree -p "$BASE" -m "tether land" "$CT")
  M=$(git commit-tree -m "any commit with the seed's tree" "$SEED^{tree}")
  printf '%s %s\n%s %s\n' "$BASE" "$M" "$THEIRS" "$M" > "$(git rev-parse --git-common-dir)/info/grafts"
)
echo "--- the parent lands the child again, with --landed $LANDED"
(cd "$P" && result m.txt f.txt | gate --worktree "$C" --seed "$SEED" --land --landed "$LANDED" 2>&1) \
  | grep -E "^(landed|already|refused|conflict|error)"
echo "gate exit: ${PIPESTATUS[0]}"
echo "--- parent's f.txt (first and last line):"; sed -n '1p;$p' "$P/f.txt"
echo
echo "=== (b) no record at all: a first land drops the parent's own edit"
rm -rf "$WORK/p"; setup; with_f
spawn c2; C=$P/wt/c2
sed -i '1i parent line' "$P/f.txt"    # the parent's edit, made meanwhile
echo "child line" >> "$C/f.txt"
(
  cd "$C"
  export GIT_INDEX_FILE=$WORK/child2.idx
  git read-tree HEAD; git add -A; CT=$(git write-tree)
  BASE=$(fixed git commit-tree -m "tether land" "$SEED^{tree}")   # a first land's base: the seed's tree
  THEIRS=$(fixed git commit-tree -p "$BASE" -m "tether land" "$CT")
  # M: f.txt as the parent has it (read from the parent's checkout, same user; a staged
  # edit is also in the shared .git/index)
  export GIT_INDEX_FILE=$WORK/m.idx
  git read-tree "$SEED^{tree}"
  git update-index --cacheinfo "100644,$(git hash-object -w "$P/f.txt"),f.txt"
  M=$(git commit-tree -m m "$(git write-tree)")
  printf '%s %s\n%s %s\n' "$BASE" "$M" "$THEIRS" "$M" > "$(git rev-parse --git-common-dir)/info/grafts"
)
(cd "$P" && result f.txt | gate --worktree "$C" --seed "$SEED" --land 2>&1) \
  | grep -E "^(landed|already|refused|conflict|error)"
echo "gate exit: ${PIPESTATUS[0]}"
echo "--- parent's f.txt (first and last line):"; sed -n '1p;$p' "$P/f.txt"
# A fixed tether gives every merge-tree it runs (the land's and heldPaths') the history
# environment gate and coord already use: GIT_GRAFT_FILE and GIT_SHALLOW_FILE pointing at
# no file and -c core.commitGraph=false (git log honours parents forged in a commit-graph
# file; that was not tried against merge-tree), or
# names the base outright (git merge-tree --merge-base, git 2.40+). Then the record is the
# base: (a) "landed: 2 paths: f.txt, m.txt" with line 1 fixed and no "child line" in
# f.txt; (b) "landed: 1 path: f.txt" with both "parent line" and "child line".
