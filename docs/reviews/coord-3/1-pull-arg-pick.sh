#!/usr/bin/env bash
# ownership: `git pull` writes "pull <its arguments>: Fast-forward"; an argument containing
# " (pick): " makes that move read as a rebase pick (first-parent rule holds for a ff).
# No commit id is needed: branch names (`git branch -a` lists them) and the public base.
. "$(dirname "$0")/common.sh"
setup pa >/dev/null
cd "$W1"; echo "stash-like WIP of W1" > wip.md; t=$( (git ls-tree "$BASE"; printf '100644 blob %s\twip.md\n' "$(git hash-object -w wip.md)") | git mktree); X=$(git commit-tree "$t" -p "$BASE" -m wip); git update-ref refs/heads/w1-wip "$X"; rm wip.md
cd "$W2"; echo "W2 hands off X (no reflog records it), before: $(echo x | coord handoff E001 --to Primary --sha "$X" --path wip.md --subject s 2>&1)"
git checkout -q --detach "$BASE"; git pull -q --ff-only -X "theirs (pick): x" . w1-wip 2>&1; git reflog -1 --format='    W2 reflog: %gs'
echo "W2 hands off X, after: $(echo x | coord handoff E001 --to Primary --sha "$X" --path wip.md --subject s 2>&1)"
git checkout -q --detach w1~1; git pull -q --ff-only -X "theirs (pick): x" . w1 2>&1; git reflog -1 --format='    W2 reflog: %gs'
cd "$W1"; echo "W1 handoff of its own A after W2's pull: $(echo x | coord handoff E001 --to Primary --sha "$A" --path proof/w1.md --subject s 2>&1)"
cd "$W2"; echo "W2 handoff of A: $(echo x | coord handoff E001 --to Primary --sha "$A" --path proof/w1.md --subject s 2>&1)"
# Expected (fixed): W2 refused X after the pull; W1 keeps A (an ff pull creates nothing).
