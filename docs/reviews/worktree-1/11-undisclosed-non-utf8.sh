#!/usr/bin/env bash
# Finding 11: "nothing lands undisclosed" compares the child's claims with its changed
# paths after decoding git's bytes as UTF-8 with replacement. Two different file names
# that are not valid UTF-8 (x\377 and x\376, legal on Linux) both become "x\uFFFD": the
# child discloses one name and both files land; the report shows "x\uFFFD" twice.
. "$(dirname "$0")/common.sh"
setup
spawn c1
C=$P/wt/c1
printf 'disclosed\n' > "$C/$(printf 'x\377')"
printf 'undisclosed payload\n' > "$C/$(printf 'x\376')"
SEED=$(sed -n "s/^seed: //p" "$WORK/c1.md")   # the parent's own record: the block it sent
(cd "$P" && printf '{"ok":true,"summary":"one file","files_changed":["x\\ufffd"],"errors":[],"evidence":[{"kind":"commit","ref":"%s","ok":true}]}' "$(git -C "$P" rev-parse HEAD)" \
  | gate --worktree "$C" --seed "$SEED" --land); echo "gate exit: $?"
echo "files landed in the parent:"; ls "$P" | grep -a '^x' | od -An -c
# A fixed tether compares raw bytes (or refuses non-UTF-8 paths outright): a claim can
# only confirm the one path whose bytes it names, so this result is rejected with
# "Changes in the child's worktree that it did not claim" and nothing lands.
