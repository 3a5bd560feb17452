#!/usr/bin/env bash
# Finding 7: readContents (src/context/content.ts) cannot read a tracked directory that was
# replaced by a file. git status lists "D d/x" and "?? d"; both paths get a placeholder in
# the private index, d displaces d/x, and d/x is then "read apart" with
# `git add -A -f --pathspec-from-file=-`, which dies on a pathspec that matches nothing
# ("fatal: pathspec 'd/x' did not match any files", exit 128, not the "beyond a symbolic
# link" case addApart drops). So: gate --since stops with exit 3 "Cannot evaluate" whatever
# the child claims (an honest child that turned d/ into a file cannot be judged), and in a
# parent in that state `handshake wrap --context` drops the whole handshake block ("prompt
# passed through without a handshake block"), `handshake --context --json` exits 3.
. "$(dirname "$0")/common.sh"
plain_repo
mkdir "$R/d"; echo x > "$R/d/x"; git -C "$R" add -A; git -C "$R" commit -q -m base
snapshot
rm -r "$R/d"; echo "now a file" > "$R/d"
git -C "$R" status --porcelain
(cd "$R" && printf '{"ok":true,"summary":"d is a file now","files_changed":["d","d/x"],"errors":[],"evidence":[{"kind":"file","ref":"d","ok":true}]}' |
  gate --since "$SNAP"); echo "gate exit: $?"
echo "--- the same state in a parent that spawns with a context:"
(cd "$R" && echo task | handshake wrap --context); echo "wrap exit: $?"
# A fixed tether reads a displaced path that no longer exists as absent (a pathspec that
# matches nothing is "nothing is there", like the refused ones; or give the displaced
# paths their own private index, as the module comment says), so gate confirms d and d/x
# (accept, exit 0) and wrap prints the handshake block and the context.
