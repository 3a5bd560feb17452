#!/usr/bin/env bash
# Finding 1: a filter attribute is allowed at a landing path, and the filter pins cover only
# the drivers named in the config when the land first reads it (readDrivers). The child
# keeps `f.txt filter=sm` in <common>/info/attributes (never refused), and leaves a watcher
# running that writes `filter.sm.smudge` into <common>/config once the land has made the
# scratch index of its merged tree, i.e. after the first reading and before the checkout.
# The smudge runs as the parent inside read-tree -m -u, writes its own bytes into the
# parent's f.txt, and removes its config section before the check after the checkout
# reads the config again. That check asks check-attr about merge/ident/encoding/eol only and
# compares filter names with the first reading, so it sees nothing: accept, landed, exit 0.
# Run from the project root: bash docs/reviews/worktree-6/1-late-filter-erases-itself.sh
. "$(dirname "$0")/common.sh"
setup; with_f
spawn c; C=$P/wt/c; common_of "$C"
sed -i 's/^line 10$/child line/' "$C/f.txt"
CHILD_LAST=$(tail -1 "$C/f.txt")

# The child's preparation: one allowed attribute, a smudge script, a watcher.
printf 'f.txt filter=sm\n' >> "$COMMON/info/attributes"
cat > "$WORK/smudge.sh" <<SH
#!/bin/sh
echo "smudge ran as \$(id -un) in \$(pwd)" >> "$WORK/ran.log"
git config --file "$COMMON/config" --remove-section filter.sm 2>/dev/null
sed 's/^child line\$/CHILD-SMUDGED line/'
SH
chmod +x "$WORK/smudge.sh"
(
  if wait_merged_index; then
    git config --file "$COMMON/config" filter.sm.smudge "$WORK/smudge.sh"
    echo "watcher: filter written after the first reading" >> "$WORK/ran.log"
  fi
) &
PIDS="$!"
sleep 0.2 # the watcher has listed the objects directory

echo "--- the parent lands (the config names no filter now):"
git -C "$P" config --get-regexp '^filter\.' || echo "(no filter.* key in the config)"
land_report "$C" f.txt
wait "$PIDS" 2>/dev/null; PIDS=""
echo "--- what the child's processes logged:"
cat "$WORK/ran.log" 2>/dev/null || echo "(nothing)"
echo "--- the config after the land:"
git -C "$P" config --get-regexp '^filter\.' || echo "(no filter.* key in the config)"
echo "--- last line of f.txt: the child's (what gate checked) and the parent's after the land:"
echo "child's file:  $CHILD_LAST"
echo "parent's file: $(tail -1 "$P/f.txt")"
# Reproduced: the watcher wins, "smudge ran as root in $WORK/p", `verdict: accept`,
# `landed: 1 path: f.txt`, exit 0, and the parent's f.txt ends in `CHILD-SMUDGED line`, which
# is in no tree gate checked; the config shows no trace.
# A fixed tether runs no filter the config may name at all, not only those named at its first
# reading: for example the checkout and refresh run with `-c filter.<name>.*` pinned for every
# `filter` attribute value check-attr reports at the written paths (asked with the pins in
# place), or with a private git dir (GIT_CONFIG_GLOBAL/GIT_CONFIG_NOSYSTEM plus a config of
# its own); or a landing path with any `filter` attribute is refused like `ident`. Then the
# smudge does not run and f.txt ends in `child line`; a check after the checkout that
# re-hashes the written files against the merged tree would also catch any late rewrite.
