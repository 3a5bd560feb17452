#!/usr/bin/env bash
# Finding 1: the land's three-way merge (src/worktree/merge.ts, `git merge-tree
# --write-tree`) obeys merge drivers from the shared .git. A child writes two plain files
# it can reach, no race, no prediction:
#   <common>/info/attributes   f.txt merge=mine
#   <common>/config            [merge "mine"] driver = <any command>
# git's low-level merge then runs that command, as the parent's user, inside the parent's
# gate (outside Deno's --allow-run=git: git spawns it), for every file both sides changed,
# and takes whatever it writes to %A as the merged content, exit 0 = clean. Here the driver
# records who ran it and copies the child's version (%B) over the merge result: the
# parent's own edit to f.txt ("parent line", made after the spawn) is silently dropped,
# gate prints "verdict: accept" / "landed: 1 path: f.txt" and exits 0. The merged tree is
# then "verified" (verifyPaths re-hashes it), but it is the driver's tree. The read-back
# of the merge's commits (the worktree-4 fix) is moot: the driver runs inside merge-tree,
# between the write and the read-back, so it could also swap objects at leisure.
# Part (b): info/attributes alone (`merge=union`, a driver built into git) turns a real
# conflict with the parent into a clean land of both lines: "landed: 1 path: f.txt", exit 0.
. "$(dirname "$0")/common.sh"
setup; with_f
spawn c1; C=$P/wt/c1
sed -i '1i parent line' "$P/f.txt"          # the parent's own edit, made meanwhile (unstaged)
echo "child line" >> "$C/f.txt"             # the child's honest change, at the other end
# --- the child, from its own worktree: two files in the shared .git
common_of "$C"
echo 'f.txt merge=mine' > "$COMMON/info/attributes"
git -C "$C" config --file "$COMMON/config" merge.mine.driver \
  "sh -c 'echo \"driver ran as \$(id -un) in \$(pwd)\" > $WORK/driver-ran; cp %B %A'"
echo "--- the parent lands the child"
land_report "$C" f.txt
echo "--- parent's f.txt (first and last line):"; sed -n '1p;$p' "$P/f.txt"
echo "--- what the child's command left:"; sed "s#$WORK#\$WORK#" "$WORK/driver-ran" 2>/dev/null || echo "(nothing: the driver did not run)"
echo
echo "=== (b) info/attributes alone, no config, no command: the built-in union driver"
rm -rf "$WORK/p" "$WORK/driver-ran"; setup; with_f
spawn c2; C=$P/wt/c2
sed -i 's/^line 5$/parent 5/' "$P/f.txt"    # the parent and the child change the same line:
sed -i 's/^line 5$/child 5/' "$C/f.txt"     # without the attribute this is "conflict: f.txt", exit 1
common_of "$C"
echo 'f.txt merge=union' > "$COMMON/info/attributes"
land_report "$C" f.txt
echo "--- parent's f.txt, lines 4-7:"; sed -n 4,7p "$P/f.txt"
# A fixed tether runs no merge driver the repository configures (for example: merge the
# blobs of the changed paths itself, or run merge-tree in a git dir only the parent wrote,
# or refuse, exit 3, when `git check-attr merge` names a driver for a landing path and
# `merge.<name>.driver` is set), so the land is git's text merge: "landed: 1 path:
# f.txt" with both "parent line" (first line) and "child line" (last line), and no
# "driver ran" file; (b) "conflict: f.txt", exit 1, the parent's f.txt untouched ("parent
# 5" alone). Pinning config is not enough for (b): the merge attribute itself must be
# ignored or refused.
