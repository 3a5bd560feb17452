#!/usr/bin/env bash
# Finding 4: gate --since (and handshake --context) read git status with a lossy decode
# (readStatus in src/context/status.ts: new TextDecoder()), so the name x\377 becomes
# "x\ufffd", a file that does not exist. Its content is recorded as absent at spawn and read
# as absent now: a change to it is never observed. (1) The child edits the tracked file
# x\377 without claiming it: accept, observed_unclaimed empty. (2) A child that creates
# n\377 and claims it by its exact name ("n\udcff", as docs/worktree.md says a child may) is
# rejected: "Claimed changes were not observed".
. "$(dirname "$0")/common.sh"
plain_repo
X=$(printf 'x\377'); N=$(printf 'n\377')
printf 'v1\n' > "$R/$X"; git -C "$R" add -A; git -C "$R" commit -q -m base
snapshot
printf 'changed by the child\n' > "$R/$X"; echo b >> "$R/a.txt"
git -C "$R" status --porcelain
echo "--- (1) undisclosed edit of x\\377:"
(cd "$R" && printf '{"ok":true,"summary":"done","files_changed":["a.txt"],"errors":[],"evidence":[{"kind":"file","ref":"a.txt","ok":true}]}' |
  gate --since "$SNAP" --json); echo "gate exit: $?"
echo "--- (2) a new file claimed by its exact name:"
printf 'new\n' > "$R/$N"
(cd "$R" && printf '{"ok":true,"summary":"done","files_changed":["a.txt","n\\udcff"],"errors":[],"evidence":[{"kind":"file","ref":"a.txt","ok":true}]}' |
  gate --since "$SNAP"); echo "gate exit: $?"
# A fixed tether decodes git status with decodePaths/decodePath (src/seed/paths.ts), as the
# worktree code does, and never passes such a path through argv: x\udcff is then
# observed_unclaimed in (1), and n\udcff confirmed in (2) (exit 0).
