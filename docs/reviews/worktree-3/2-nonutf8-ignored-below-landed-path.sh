#!/usr/bin/env bash
# Finding 2: worktree-2 finding 1 again, with a directory whose name is not UTF-8.
# ignoredInTheWay (src/worktree/land_checks.ts) passes the landed paths to git as command
# line arguments. tether decodes such a name without loss ("mix\udcff"), but Deno turns a
# lone surrogate in an argument into U+FFFD, so git is asked about "mix<EF BF BD>", a path
# that does not exist, and finds nothing ignored (git's answer is also decoded lossily). The
# child replaces the directory mix\377/ by a file; the land deletes the parent's ignored
# mix\377/s.env: exit 0, "landed: 2 paths", the secret is gone.
. "$(dirname "$0")/common.sh"
setup
D=$(printf 'mix\377')
mkdir "$P/$D"; echo tracked > "$P/$D/t.txt"
git -C "$P" add -- "$D/t.txt"; git -C "$P" commit -q -m mix
printf 'SECRET=parent-only\n' > "$P/$D/s.env"          # ignored (*.env), only in the parent
spawn c1
C=$P/wt/c1
rm -r "$C/$D"; echo "now a file" > "$C/$D"
printf '{"ok":true,"summary":"done","files_changed":["mix\\udcff","mix\\udcff/t.txt"],"errors":[],"evidence":[{"kind":"file","ref":"mix\\udcff","ok":true}]}' > "$WORK/r.json"
(cd "$P" && gate --worktree "$C" --seed "$SEED" --land < "$WORK/r.json"); echo "gate exit: $?"
echo "--- the parent's ignored secret:"; cat "$P/$D/s.env" 2>&1
# A fixed tether never passes a path through argv when it may hold bytes that are not
# UTF-8: pathspecs go on stdin (--pathspec-from-file=- --pathspec-file-nul, encoded with
# encodePath), or the ignored listing is taken once for the whole tree and compared as
# decodePaths strings. Here: refused "ignored" (mix\udcff/s.env), exit 1, nothing written.
