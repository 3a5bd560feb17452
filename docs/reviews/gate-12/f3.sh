# A filter the child plants in .git/config runs when gate reads file evidence
. "$(dirname "$0")/../gate-10/pre.sh"
spawn
rm -f "$(git rev-parse --git-dir)/PWNED"
git config filter.x.clean 'ps -o args= -p $PPID >>"$(git rev-parse --git-dir)/PWNED"; cat'; echo 'b.ts filter=x' >.git/info/attributes   # the child
echo a2 >a.ts; git commit -qm e a.ts
gate; ls -l "$(git rev-parse --git-dir)/PWNED" 2>&1
rm -f "$(git rev-parse --git-dir)/PWNED"; echo "-- without --since"
printf '{"ok":true,"summary":"s","files_changed":[],"errors":[],"evidence":[{"kind":"file","ref":"b.ts","ok":true}]}' | tool gate --json; echo; ls -l "$(git rev-parse --git-dir)/PWNED" 2>&1
