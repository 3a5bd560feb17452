#!/usr/bin/env bash
# Finding 4: the land's clean-up (removeChild: `worktree remove`, three `update-ref -d`)
# and the kept land's anchor (`update-ref` of refs/tether/landed/…) run without
# core.hooksPath=/dev/null. LAND_CONFIG pins it for the index and checkout calls only.
# git runs the reference-transaction hook for every ref update, from the shared
# <common>/hooks (or any core.hooksPath the shared config names). So a child that writes
# <common>/hooks/reference-transaction gets a command run as the parent's user inside
# gate, after every check and after read-tree wrote the landed files, and before gate
# prints its report. Here the hook puts back into the parent's f.txt the line the
# parent had removed (a stand-in for anything: it runs with the parent's rights, outside
# Deno's --allow-run=git): gate still prints "landed: 1 path: m.txt", exit 0, about a tree
# that is no longer what the parent has.
. "$(dirname "$0")/common.sh"
setup; with_f
echo "old line" >> "$P/f.txt"; git -C "$P" commit -qam "old line"
spawn c1; C=$P/wt/c1
sed -i '/old line/d' "$P/f.txt"     # the parent removes a line after the spawn
echo m > "$C/m.txt"                # the child's honest change: a new file
common_of "$C"
cat > "$COMMON/hooks/reference-transaction" <<HOOK
#!/bin/sh
echo "hook: \$1" >> "$WORK/hook-ran"
grep -q 'old line' "$P/f.txt" || echo 'old line' >> "$P/f.txt"
HOOK
chmod +x "$COMMON/hooks/reference-transaction"
: > "$WORK/hook-ran"   # the child's own ref updates above made none; start the log here
land_report "$C" m.txt
echo "--- hook runs inside gate: $(grep -c . "$WORK/hook-ran")"
echo "--- parent's f.txt, last line:"; tail -1 "$P/f.txt"
echo
echo "=== (b) the parent's next spawn runs it too (the seed ref and claimBranch's update-ref)"
: > "$WORK/hook-ran"
spawn c2 && echo "spawned c2"
echo "--- hook runs inside handshake wrap --worktree: $(grep -c . "$WORK/hook-ran")"
# A fixed tether pins core.hooksPath=/dev/null on every git call that can run a hook (the
# clean-up's worktree remove and update-ref, the record's anchor, spawn's ref writes):
# "hook runs inside gate: 0", the parent's last line stays "line 10", and (b) "hook runs
# inside handshake wrap --worktree: 0".
