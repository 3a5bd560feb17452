#!/usr/bin/env bash
# Finding 6: renderWorktree prints "landed: nothing new (the child changed nothing since
# its land record)" whenever a land with --landed writes nothing (paths empty, already
# set). That also happens when the child did change paths since the record and the
# parent already has the same change (it fixed the same bug meanwhile). Here the child
# appends "fix" to g.txt after its kept land of f.txt, and so does the parent. The report
# says the child changed nothing since its record, while confirmed: g.txt and the
# evidence (verified file g.txt) on the lines above say it did. docs/worktree.md gives
# the line for "when nothing else lands", not only when the child changed nothing.
. "$(dirname "$0")/common.sh"
setup; with_f
printf 'g\n' > "$P/g.txt"; git -C "$P" add g.txt; git -C "$P" commit -q -m g
spawn c1; C=$P/wt/c1
echo "child line" >> "$C/f.txt"
kept_land "$C" f.txt
echo "fix" >> "$C/g.txt"
echo "fix" >> "$P/g.txt"   # the parent made the same fix meanwhile
(cd "$P" && result g.txt f.txt | gate --worktree "$C" --seed "$SEED" --land --landed "$LANDED") \
  | grep -E "^(verdict|evidence|confirmed|landed|already)"
echo "gate exit: ${PIPESTATUS[0]}"
# A fixed tether tells the two cases apart: with own changes that write nothing it says
# "landed: nothing new (the parent already has the child's changes since its land
# record: g.txt)", and keeps "the child changed nothing since its land record" for a
# child whose tree equals the record at every changed path.
