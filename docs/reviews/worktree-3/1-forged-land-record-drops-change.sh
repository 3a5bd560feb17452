#!/usr/bin/env bash
# Finding 1: the land record refs/tether/landed/<seed12>-<n> lives in shared refs, so a
# sibling can write it for another child. docs/worktree.md says a forged record "can hold
# back only a change the parent already holds line for line". But "holds" is tested on line
# counts (holdsChange): every added line present as often, no removed line more often.
# A change that only moves lines (a reorder, a moved function, sorted imports) keeps every
# count, so the parent "holds" it while it has none of it. Here honest child 2 swaps two
# lines of f.txt; the parent has appended a line of its own to f.txt; sibling 1 writes child
# 2's land record (the seed's tree with child 2's f.txt). gate accepts child 2, prints
# "landed: nothing new (the parent already has every change)" and "already landed: f.txt",
# exit 0, and removes child 2's worktree and branch: the swap is in neither place any more.
. "$(dirname "$0")/common.sh"
setup
seq 1 10 | sed 's/^/line /' > "$P/f.txt"; git -C "$P" add f.txt; git -C "$P" commit -q -m f
spawn_two
# honest child 2: swaps lines 1 and 2
{ echo "line 2"; echo "line 1"; seq 3 10 | sed 's/^/line /'; } > "$C2/f.txt"
# the parent meanwhile appends a line of its own (far from the swap: the merge is clean)
echo "parent line" >> "$P/f.txt"
# --- sibling 1's doing: child 2's record, never landed by anyone
(
  cd "$C1"
  export GIT_INDEX_FILE=$WORK/forge.idx
  git read-tree "$SEED^{tree}"
  git update-index --cacheinfo "100644,$(git hash-object -w "$C2/f.txt"),f.txt"
  git update-ref "refs/tether/landed/${SEED:0:12}-2" \
    "$(git commit-tree -p "$SEED" -m forged "$(git write-tree)")"
)
(cd "$P" && result f.txt | gate --worktree "$C2" --seed "$SEED" --land); echo "gate exit: $?"
echo "--- parent's f.txt (the swap of lines 1 and 2 is missing):"; head -2 "$P/f.txt"
echo "--- child 2's worktree:"; ls -d "$C2" 2>&1
# A fixed tether never lets a record it did not write skip a change: it keeps the record
# where a child cannot write (or signs it, e.g. records the land commit's id in the parent's
# own reflog/config and checks it), and decides "already held" by content, not line counts:
# the path is left out only when a three-way merge of the parent's file with the record's
# change (base seed, theirs record) leaves the parent's file unchanged. Here f.txt is
# landed (lines 1 and 2 swapped, the parent's line kept) or the land is refused.
