#!/usr/bin/env bash
# Finding 4: a git failure after the land's checkout is reported as "Cannot evaluate", exit
# 3, with no word that the files were written. land.ts rethrows every error of the
# read-back (notAsTree) that is not its own NotAsChecked, and the after-check's attributesAt
# throws too, so gate's report is git's error alone. The child's watcher (fork-free: see
# common.sh) waits for the read-back's private index to appear in objects/ and appends one
# line of garbage to <common>/config: every later git call dies on "bad config line". The
# parent's files now hold the child's change; gate says it could not evaluate, prints no
# `landed` line, keeps the child, and never says "the land wrote …" (compare the messages
# land.ts gives for a move or a settings change after the checkout, which do).
# Run from the project root: bash docs/reviews/worktree-8/4-error-after-checkout-hides-the-land.sh
. "$(dirname "$0")/common.sh"
setup
spawn c; C=$P/wt/c; common_of "$C"
printf 'from the child\n' > "$C/n.txt"
WATCH_BEFORE=$(cd "$COMMON/objects" && echo tmp_tether_*)
( if watch_land && watch_readback; then
    printf '[broken\n' >> "$COMMON/config"; echo "watcher: config broken during the read-back" > "$WORK/w.log"
  fi ) &
PIDS="$!"
sleep 0.2
(cd "$P" && result n.txt | gate --worktree "$C" --seed "$SEED" --land 2>&1) | cut -c1-400
echo "gate exit: ${PIPESTATUS[0]}"
wait "$PIDS" 2>/dev/null; PIDS=""
cat "$WORK/w.log" 2>/dev/null || echo "(the watcher did not fire)"
sed -i '$d' "$COMMON/config" # the parent repairs the config to look
echo "--- the parent's n.txt after the run: $(cat "$P/n.txt" 2>&1)"

echo "=== second run: worktree-7's raced conversion, then the broken config: the read-back and undo never run"
mv "$P" "$WORK/p1"; setup; with_f
spawn c; C=$P/wt/c; common_of "$C"
sed -i 's/^line 10$/child line/' "$C/f.txt"
WATCH_BEFORE=$(cd "$COMMON/objects" && echo tmp_tether_*); rm -f "$WORK/w.log"
( if watch_land && wait_lock "$SCRATCH" && wait_unlock "$SCRATCH"; then
    printf 'f.txt eol=crlf\n' >> "$COMMON/info/attributes"
    if watch_readback; then
      printf '[broken\n' >> "$COMMON/config"; echo "watcher: eol=crlf after the refresh, config broken during the read-back" > "$WORK/w.log"
    fi
  fi ) &
PIDS="$!"
sleep 0.2
(cd "$P" && result f.txt | gate --worktree "$C" --seed "$SEED" --land 2>&1) | cut -c1-400
echo "gate exit: ${PIPESTATUS[0]}"
wait "$PIDS" 2>/dev/null; PIDS=""
cat "$WORK/w.log" 2>/dev/null || echo "(the watcher did not fire)"
sed -i '$d' "$COMMON/config"; sed -i '$d' "$COMMON/info/attributes" # the child tidies up
echo "--- the parent's f.txt, last line as bytes (CRLF is \\r \\n):"; tail -1 "$P/f.txt" | od -c | head -2
# Reproduced when the watcher fires: `error: Cannot evaluate: git … exited with 128: fatal:
# bad config line …`, gate exit 3, and n.txt holds the child's bytes. Run 2: the same error,
# and f.txt is left with CRLF line ends, bytes gate never checked: worktree-7's read-back and
# undo are skipped, and nothing names f.txt. A fixed land catches
# every error after the checkout starts and says what it wrote ("the land wrote n.txt, but
# the read-back failed (…): check those files by hand"), as it does for a moved repository,
# or undoes the land first when git can still run.
