#!/usr/bin/env bash
# Finding 6: the raw capture (writeRawTree, used by spawn, verify and gate --worktree) leaves
# some files out without a word, so a child's change there is neither judged nor landed and is
# deleted with the worktree after an accept.
#  (a) A tracked file that is ignored and whose name is not UTF-8: trackedPaths
#      (src/seed/state.ts) decodes `ls-files -s` lossily and looks the path up through argv,
#      so git is asked about a name that does not exist. A parent holding one cannot spawn
#      ("git status ... differs from the parent's (submodules or filters?)"); a child that
#      adds one (git add -f) is accepted without it, and it is removed with the worktree.
#  (b) An ordinary untracked file whose name holds a control character and a byte that is
#      not UTF-8 ("notes\n\377.txt"): hashRegularFiles passes it through argv (mangled), the
#      hash fails, and writeRawTree writes mode 0 for an unread path, which drops it from the
#      tree instead of failing the capture (its comment says a placeholder left "fails here").
#      For a user who is not root the same happens to any file the parent cannot read
#      (chmod 000): this script runs as whoever runs it, so (b) uses the name.
. "$(dirname "$0")/common.sh"
setup
K=$(printf 'k\377.env')
echo "--- (a) a parent with a tracked, ignored, non-UTF-8 file cannot spawn:"
printf 'v1\n' > "$P/$K"; git -C "$P" add -f -- "$K"; git -C "$P" commit -q -m k
(cd "$P" && echo task | handshake wrap --worktree "$P/wt/x" > /dev/null); echo "spawn exit: $?"
git -C "$P" rm -q --cached -- "$K"; rm -f "$P/$K"; git -C "$P" commit -q -m "drop k"
spawn c1
C=$P/wt/c1
echo "--- (a) a child adds one, (b) a child writes an untracked file named notes\\n\\377.txt:"
printf 'config the child wrote\n' > "$C/$K"; git -C "$C" add -f -- "$K"
printf 'the child wrote this\n' > "$C/$(printf 'notes\n\377.txt')"
printf 'x\n' > "$C/n.txt"
git -C "$C" status --porcelain
(cd "$P" && result n.txt | gate --worktree "$C" --seed "$SEED" --land); echo "gate exit: $?"
echo "--- the child's worktree:"; ls -d "$C" 2>&1
echo "--- (c) a file the reader may not open (chmod 000; as root, with the override capability dropped):"
printf 'locked\n' > "$C/locked.txt"; chmod 000 "$C/locked.txt"
asuser() { if [ "$(id -u)" = 0 ]; then setpriv --bounding-set -dac_override,-dac_read_search -- "$@"; else "$@"; fi; }
(cd "$P" && result n.txt | asuser $DENO run --quiet --no-prompt --allow-run=git "$PROJECT/gate.ts" --worktree "$C" --seed "$SEED"); echo "gate exit: $?"
chmod 644 "$C/locked.txt"
# A fixed tether decodes every git path list with decodePaths and passes paths on stdin
# (NUL-separated, encodePath), never through argv, and fails the capture (exit 3, path named)
# when a regular file cannot be hashed instead of writing mode 0. Here the spawn succeeds
# in (a), and the child's two files are observed_unclaimed: reject, worktree kept; in (c)
# gate stops with exit 3, "cannot read "locked.txt": git could not hash it".
