#!/usr/bin/env bash
# ownership (denial): `git rebase --force-rebase --committer-date-is-author-date` re-picks
# W1's commit A into exactly the same commit id (same tree, parent, author, committer and
# dates; the lanes share the committer identity). W3's reflog then records a consistent
# `rebase (pick)` creation of A, A becomes contested, and W1 loses its own released commit.
. "$(dirname "$0")/common.sh"
setup rc >/dev/null
write_status "blind: W1 W2" "released: W1 $A"
cd "$W1"; echo "W1 hands off its own A, before: $(echo x | coord handoff E001 --to Primary --sha "$A" --path proof/w1.md --subject s 2>&1)"
cd "$W3"; echo "W3 reads A (released), before: $(echo x | coord handoff E001 --to Primary --sha "$A" --path proof/w1.md --subject s 2>&1)"
git checkout -q -b copy w1; git rebase -q --force-rebase --committer-date-is-author-date w1~1   # branch names only, no id
echo "    W3 HEAD after rebase: $(git rev-parse HEAD) (A=$A)"; git reflog -3 --format='    W3 reflog: %gs'
cd "$W1"; echo "W1 hands off its own A, after: $(echo x | coord handoff E001 --to Primary --sha "$A" --path proof/w1.md --subject s 2>&1)"
cd "$W3"; echo "W3 handoff of released A, after: $(echo x | coord handoff E001 --to Primary --sha "$A" --path proof/w1.md --subject s 2>&1)"
# Expected (fixed): both handoffs still succeed after W3's rebase (a pick that yields an
# existing commit creates nothing).
# Part 2, gain: X is W1's stash-like commit that no reflog records (Primary only). W2
# re-picks it into the same id and becomes its sole "maker".
cd "$W1"; echo "stash-like WIP of W1" > wip.md; t=$( (git ls-tree "$BASE"; printf '100644 blob %s\twip.md\n' "$(git hash-object -w wip.md)") | git mktree); X=$(git commit-tree "$t" -p "$BASE" -m wip); git update-ref refs/heads/w1-wip "$X"; rm wip.md
cd "$W2"; echo "W2 hands off X, before: $(echo x | coord handoff E001 --to Primary --sha "$X" --path wip.md --subject s 2>&1)"
git checkout -q -b take w1-wip; git rebase -q --force-rebase --committer-date-is-author-date "$BASE"; echo "    W2 HEAD $(git rev-parse HEAD) (X=$X)"
echo "W2 hands off X, after:  $(echo x | coord handoff E001 --to Primary --sha "$X" --path wip.md --subject s 2>&1)"
# Expected (fixed): W2 is still refused X.
