#!/usr/bin/env bash
# denial (bypass of coord-4 #4's fix): the amend source check re-splits the whole reflog
# file for every amend entry that passes ownsCommit (oldValue() does `file.split("\n")` per
# call), so ownership costs (amend entries) x (reflog size): quadratic. Any lane can give its
# own HEAD reflog N amend entries: `git commit --amend` in a loop does it slowly; writing the
# lane's own reflog file (it lives in the shared .git, writable by every lane) with commits
# made by one `git fast-import` does it in a second. Every command of every lane (Primary's
# `status`, `inbox`, `read`, and `wait`, whose deadline does not bound the ownership read)
# reads every lane's reflog, so one lane slows all of them.
. "$(dirname "$0")/common.sh"
N=${N:-20000}
setup amendq >/dev/null
# W1 hands Primary its work: a lane with a handoff in view reads every lane's reflog.
cd "$W1"; id=$(echo x | coord handoff E001 --to Primary --sha "$A" --path proof/w1.md --subject "W1 result" 2>&1); echo "W1 handed off: $id"
t0=$(date +%s.%N); (cd "$W1"; coord inbox E001 >/dev/null 2>&1); t1=$(date +%s.%N)
echo "before: W1 coord inbox E001 -> $(echo "$t1 - $t0" | bc) s"
T=1700000000
# N commits, each with parent base (an amend keeps the parents), one committer time T.
for i in $(seq 1 "$N"); do
  printf 'commit refs/heads/junk\nmark :%d\ncommitter T <t@example.invalid> %d +0000\ndata %d\nx%d\nfrom %s\n\n' \
    "$i" "$T" $((${#i} + 1)) "$i" "$BASE"
done | git -C "$W3" fast-import --quiet --export-marks="$WORK/marks"
log=$(git -C "$W3" rev-parse --git-dir)/logs/HEAD
# The lane's reflog: a chain of amends, each entry's old value the commit of the entry before.
sort -t: -k2 -n "$WORK/marks" | awk -v base="$BASE" -v t="$T" '
  { split($0, f, " "); new = f[2]
    printf "%s %s T <t@example.invalid> %d +0000\tcommit (amend): x\n", (NR == 1 ? base : old), new, t
    old = new }' >> "$log"
echo "W3's reflog: $(wc -l < "$log") entries, $(du -h "$log" | cut -f1)"
t0=$(date +%s.%N); git -C "$P" log -g -z --format=%H%x00%gD%x00%P%x00%ct%x00%gs "$(basename "$(dirname "$(dirname "$log")")" | sed 's|^|worktrees/|')/HEAD@{0}" >/dev/null; t1=$(date +%s.%N)
echo "git log -g of that reflog alone -> $(echo "$t1 - $t0" | bc) s"
t0=$(date +%s.%N); (cd "$W1"; coord inbox E001 >/dev/null 2>&1); t1=$(date +%s.%N)
echo "after:  W1 coord inbox E001 -> $(echo "$t1 - $t0" | bc) s"
t0=$(date +%s.%N); (cd "$W1"; coord wait E001 --timeout 1s >/dev/null 2>&1); rc=$?; t1=$(date +%s.%N)
echo "after:  W1 coord wait E001 --timeout 1s -> exit $rc after $(echo "$t1 - $t0" | bc) s"
# Expected (fixed): the reflog file is split once (old values indexed by entry number), so
# ownership costs what the git walk costs; inbox stays near its "before" time plus the walk,
# and a wait's deadline bounds the ownership read too.
