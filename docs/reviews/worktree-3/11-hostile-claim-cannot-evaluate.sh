#!/usr/bin/env bash
# Finding 11: gate --since reads every claimed path through readContents, which hands it to
# git as an index entry and a pathspec. A claim git refuses there ("../x", ".GIT/config",
# "sub/.git", a NUL) makes gate stop with exit 3 "Cannot evaluate: ..." and git's message,
# instead of a reject verdict naming the bad claim (exit 1). ".git/config" and "/etc/passwd"
# are rejected properly, so the result depends on the spelling.
. "$(dirname "$0")/common.sh"
plain_repo
git -C "$R" add -A; git -C "$R" commit -q -m base
snapshot
echo b >> "$R/a.txt"
for c in '../x' '.GIT/config' 'sub/.git' '\u0000' '.git/config'; do
  printf '{"ok":true,"summary":"done","files_changed":["a.txt","%s"],"errors":[],"evidence":[{"kind":"file","ref":"a.txt","ok":true}]}' "$c" |
    (cd "$R" && gate --since "$SNAP") > "$WORK/out" 2>&1
  echo "claim $c -> exit $?: $(grep -E '^(error|reason)' "$WORK/out" | head -2 | tr '\n' ' ')"
done
# A fixed tether checks claims as it checks file evidence (jailRelativePath plus the .git
# rule, case-insensitive) before reading them, and reads only claims that pass: each bad
# claim is a reason ("Claimed path refused: path climbs out with ..." / "... is inside a .git
# directory" / "path contains a NUL byte ..."), exit 1.
