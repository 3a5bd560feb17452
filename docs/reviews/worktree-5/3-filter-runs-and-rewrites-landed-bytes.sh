#!/usr/bin/env bash
# Finding 3: the land's `update-index --refresh` and `read-tree -m -u` (src/worktree/land.ts)
# run clean and smudge filters from the shared .git. docs/worktree.md's table says "the
# child's clean filter or hook runs when the parent reads or lands it" is closed; it is
# closed for the reading only. A child writes:
#   <common>/info/attributes   f.txt filter=sm
#   <common>/config            [filter "sm"] clean = <cmd>   smudge = <cmd>
# The clean command runs when the refresh compares the parent's f.txt with its blob, the
# smudge command when read-tree writes the landed f.txt: both as the parent's user, inside
# gate. The smudge's output is what lands on disk, after every check (verifyPaths re-hashed
# the merged tree, whose f.txt says "child line"). Here it turns "child line" into
# "CHILD-SMUDGED line": gate prints "verdict: accept" / "landed: 1 path: f.txt", exit 0, and
# the parent's f.txt holds bytes that are in no tree gate judged. The known limit in the docs
# ("the attributes are the parent's") speaks of attributes that rewrite line ends, not of
# a command the child chose.
. "$(dirname "$0")/common.sh"
setup; with_f
spawn c1; C=$P/wt/c1
echo "child line" >> "$C/f.txt"
common_of "$C"
echo 'f.txt filter=sm' > "$COMMON/info/attributes"
git -C "$C" config --file "$COMMON/config" filter.sm.clean "sh -c 'echo clean ran >> $WORK/filter-ran; cat'"
git -C "$C" config --file "$COMMON/config" filter.sm.smudge "sh -c 'echo smudge ran >> $WORK/filter-ran; sed s/child/CHILD-SMUDGED/'"
echo "--- the child's f.txt, last line:"; tail -1 "$C/f.txt"
land_report "$C" f.txt
echo "--- the child's commands that ran inside gate:"; cat "$WORK/filter-ran" 2>/dev/null || echo "(none)"
echo "--- the parent's f.txt after the land, last line:"; tail -1 "$P/f.txt"
# A fixed tether writes the merged raw bytes, as the docs say: the land's index and
# checkout calls run no filter the repository configures (e.g. attributes neutralised by
# checking `git check-attr filter` on the landing paths and refusing, exit 3, or the
# checkout done in a git dir only the parent wrote). Then no "clean ran"/"smudge ran"
# line, and the parent's last line is "child line", the bytes gate verified.
