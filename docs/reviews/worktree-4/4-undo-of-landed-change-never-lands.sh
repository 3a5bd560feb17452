#!/usr/bin/env bash
# Finding 4: with --landed, "what the child changed" is still measured from the seed, so
# a change the child makes since its kept land that puts a path back as the seed had it
# is neither landed nor claimable. After a kept land of f.txt (a line added) and
# helper.txt (a new file), the parent asks for an undo and a rename: the child takes its
# line out of f.txt and renames helper.txt to util.txt. Both changes are real, since the
# record. (a) An honest report (files_changed: util.txt, helper.txt, f.txt) is rejected:
# "Claimed changes were not observed: f.txt, helper.txt", exit 1. (b) A report naming
# only util.txt is accepted: "landed: 1 path: util.txt", exit 0, the worktree is removed,
# and the parent keeps the child's line in f.txt and now has helper.txt AND util.txt: the
# undo is lost and the rename landed as a copy. docs/worktree.md calls such a path "no
# change of the child's (nor claimed)"; recordBase's comment says the same. But f.txt
# and helper.txt differ between the record and the child's tree, so by the record's own
# logic ("only what the child changed since the record lands") they are changes.
. "$(dirname "$0")/common.sh"
setup; with_f
spawn c1; C=$P/wt/c1
echo "child line" >> "$C/f.txt"; printf 'helper\n' > "$C/helper.txt"
kept_land "$C" f.txt helper.txt
grep -E "^(landed|land record)" "$WORK/first.txt"
echo "--- the child undoes its f.txt line and renames helper.txt to util.txt"
sed -i '/child line/d' "$C/f.txt"; mv "$C/helper.txt" "$C/util.txt"
echo "--- (a) an honest report"
(cd "$P" && result util.txt helper.txt f.txt | gate --worktree "$C" --seed "$SEED" --land --landed "$LANDED" --keep) \
  | grep -E "^(verdict|reason|landed|already)"
echo "gate exit: ${PIPESTATUS[0]}"
echo "--- (b) a report naming only the new file"
(cd "$P" && result util.txt | gate --worktree "$C" --seed "$SEED" --land --landed "$LANDED") \
  | grep -E "^(verdict|reason|landed|already|removed)"
echo "gate exit: ${PIPESTATUS[0]}"
echo "--- parent: f.txt's last line, and helper.txt / util.txt:"
tail -1 "$P/f.txt"; ls "$P" | grep -E '^(helper|util)\.txt$'
# A fixed tether measures the child's changes for a land with --landed as the paths where
# the child differs from the seed OR from the record (changed plus sinceRecord), and puts
# the record in the merge base at all of them. Then (a) is accepted with
# "landed: 3 paths: f.txt, helper.txt, util.txt": the child line is gone from f.txt and
# helper.txt is removed, unless the parent changed them since (a conflict, named). And
# (b) is rejected: "did not claim: f.txt, helper.txt".
