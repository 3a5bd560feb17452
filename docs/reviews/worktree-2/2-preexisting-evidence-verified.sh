#!/usr/bin/env bash
# Finding 2: gate --worktree checks commit and file evidence with no spawn state, so "new since
# spawn" is never asked: any commit that exists in the repository is "verified", including
# the parent's own HEAD from before the spawn. The child made no commit at all (the report
# itself says "0 commits since"), yet its "committed" evidence counts as proof of work and
# the result is accepted. Shared-mode gate with --since calls the same commit "preexisting".
. "$(dirname "$0")/common.sh"
setup
spawn c1
C=$P/wt/c1
SEED=$(sed -n "s/^seed: //p" "$WORK/c1.md")
OLD=$(git -C "$P" rev-parse HEAD)          # the parent's commit, made before the spawn
echo new > "$C/n.txt"
printf '{"ok":true,"summary":"done, committed","files_changed":["n.txt"],"errors":[],"evidence":[{"kind":"commit","ref":"%s","ok":true}]}' "$OLD" > "$WORK/r.json"
(cd "$P" && gate --worktree "$C" --seed "$SEED" < "$WORK/r.json"); echo "gate exit: $?"
# The same for file evidence: b.txt is the parent's carried edit, untouched by the child
# (b.txt is not among the child's changes), yet "verified file b.txt".
printf '{"ok":true,"summary":"fixed b.txt","files_changed":["n.txt"],"errors":[],"evidence":[{"kind":"file","ref":"b.txt","ok":true}]}' > "$WORK/r2.json"
(cd "$P" && gate --worktree "$C" --seed "$SEED" < "$WORK/r2.json"); echo "gate exit: $?"
# A child that did nothing at all: no file, no commit, "all done", the parent's HEAD as proof.
printf '{"ok":true,"summary":"all done","files_changed":[],"errors":[],"evidence":[{"kind":"commit","ref":"%s","ok":true}]}' "$OLD" > "$WORK/r3.json"
rm -f "$C/n.txt"
(cd "$P" && gate --worktree "$C" --seed "$SEED" < "$WORK/r3.json"); echo "gate exit (child did nothing): $?"
# A fixed tether checks commit evidence against the child's own history: verified only
# for a commit in worktree.commits (reachable from the child's HEAD and not from the seed's
# HEAD); the parent's HEAD is "preexisting" and, as the only evidence, the verdict is
# reject ("No evidence item shows work done since spawn"). Likewise file evidence counts
# only for a path in the child's changed paths (seed tree -> live tree).
