#!/usr/bin/env bash
# Finding 13: a parent with an intent-to-add entry (`git add -N`, which agents use to make
# new files show in `git diff`) cannot spawn at all: the seed records the entry as a
# staged empty file (docs/worktree.md, Known limits, presents this as how it is carried),
# so the child's status says "AM" where the parent's says " A", the fingerprint check
# fails and every spawn exits 3. The failed spawn also leaves debris: the directories
# git created for DIR (here deep/er/batch) and a seed ref for a state nobody got.
. "$(dirname "$0")/common.sh"
setup
echo "new module" > "$P/ita.txt"; git -C "$P" add -N ita.txt
git -C "$P" status --short
(cd "$P" && handshake --worktree "$WORK/deep/er/batch" --count 2 >/dev/null); echo "spawn exit: $?"
echo "left behind:"; find "$WORK/deep"; git -C "$P" for-each-ref --format='%(refname)' refs/tether
# A fixed tether carries an intent-to-add entry as one (e.g. `update-index --add
# --intent-to-add` / `git add -N` of those paths in the child after the index tree is
# read, or records it in the seed's index tree as git's own i-t-a stage) so the spawn
# succeeds with the parent's fingerprint; and a failed spawn removes the directories it
# made and the seed ref it wrote for nobody (or says why it keeps it).
