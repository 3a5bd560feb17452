#!/usr/bin/env bash
# Finding 2: a checkout that fails after writing is reported by what it wrote, but "wrote" is
# only a path that reads back as the merged tree's and no longer as the parent's
# (checkoutFailed: `!notMerged.has(p) && notBefore.has(p)`). A path the checkout left in a
# third state, neither the parent's nor the merged tree's, is not counted. git's checkout
# removes a file before it writes the new one, so a smudge filter that fails with
# `required=true` (git dies there: "fatal: f.txt: smudge filter evil failed") leaves the
# parent's f.txt deleted. The child's watcher (fork-free, common.sh) waits for the land's
# refresh of its scratch index to end (the last check before the checkout is done) and then
# appends `f.txt filter=evil` to <common>/info/attributes and a required smudge `false` to
# <common>/config: two appends, no fork, in the gap before read-tree -m -u reads them.
# Run 1: only f.txt lands. Nothing "wrote" as the merged tree, so gate gives git's error as
# it is (the docs: "a checkout git refuses wrote nothing"), no undo, and the parent's f.txt
# (with the parent's uncommitted edit) is gone.
# Run 2: a.txt and f.txt land. a.txt was written, so gate says "the land wrote a.txt …
# check a.txt by hand"; f.txt, deleted, is not named.
# Run from the project root: bash docs/reviews/worktree-9/2-failed-checkout-deleted-path-unnamed.sh
. "$(dirname "$0")/common.sh"
race() { # CLAIM...: land $C with the watcher armed; then show the parent's a.txt and f.txt
  common_of "$C"; WATCH_BEFORE=$(cd "$COMMON/objects" && echo tmp_tether_*); rm -f "$WORK/w.log"
  ( if watch_land && wait_lock "$SCRATCH" && wait_unlock "$SCRATCH"; then
      printf 'f.txt filter=evil\n' >> "$COMMON/info/attributes"
      printf '[filter "evil"]\n\tsmudge = false\n\trequired = true\n' >> "$COMMON/config"
      echo "watcher: filter planted after the refresh" > "$WORK/w.log"
    fi ) &
  PIDS="$!"
  sleep 0.2
  (cd "$P" && result "$@" | gate --worktree "$C" --seed "$SEED" --land 2>&1) | grep -E '^(verdict|landed|refused|error)' | cut -c1-900
  echo "gate exit: ${PIPESTATUS[0]}"
  wait "$PIDS" 2>/dev/null; PIDS=""
  cat "$WORK/w.log" 2>/dev/null || echo "(the watcher did not fire: run again)"
  echo "--- the parent's f.txt after the run: $(tail -1 "$P/f.txt" 2>&1)"
  echo "--- the parent's a.txt after the run: $(tail -1 "$P/a.txt" 2>&1)"
}
setup; with_f
printf 'parent edit, uncommitted\n' >> "$P/f.txt"
spawn c; C=$P/wt/c
sed -i 's/^line 1$/child line/' "$C/f.txt"
race f.txt
echo "=== second run: a.txt lands too (written before f.txt)"
mv "$P" "$WORK/p1"; setup; with_f
printf 'parent edit, uncommitted\n' >> "$P/f.txt"
spawn c; C=$P/wt/c
sed -i 's/^line 1$/child line/' "$C/f.txt"; printf 'child a\n' >> "$C/a.txt"
race a.txt f.txt
# Reproduced (when the watcher fires): run 1 prints git's error alone (`Cannot evaluate: …
# fatal: f.txt: smudge filter evil failed`), exit 3, and the parent's f.txt no longer exists;
# run 2 says the land wrote a.txt and names a.txt alone, while f.txt is deleted.
# A fixed checkoutFailed counts as written every landing path that no longer reads back as
# the parent's raw tree (notBefore), whatever it holds now, and undoes or names all of them;
# git's error is given as is only when every path still reads back as before.
