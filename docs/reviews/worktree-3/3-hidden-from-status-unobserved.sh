#!/usr/bin/env bash
# Finding 3: gate --since reads what a path holds "never inferred from its absence in the
# live status (a child can hide a path with ... git update-index --skip-worktree)"
# (docs/gate.md), and a skip-worktree/assume-unchanged file's "content is still read
# directly for observed changes" (Known limits). It is not: the paths gate reads are the
# snapshot's status entries, the live status entries, the claims and the HEAD trees'
# differences. A tracked file that was clean at spawn and is hidden from git status by an
# index flag is in none of them, so it is never read. The child edits a.txt (claimed) and,
# undisclosed, limits.conf and skip.txt; gate says accept with observed_unclaimed empty.
. "$(dirname "$0")/common.sh"
plain_repo
printf 'PAYMENT_LIMIT=100\n' > "$R/limits.conf"; printf 'x\n' > "$R/skip.txt"
git -C "$R" add -A; git -C "$R" commit -q -m base
snapshot
cd "$R"
echo b >> a.txt                                              # claimed
git update-index --assume-unchanged limits.conf; echo 'PAYMENT_LIMIT=100000000' > limits.conf
git update-index --skip-worktree skip.txt; echo 'y' > skip.txt
echo "--- git diff HEAD --stat (git itself no longer shows them):"; git diff HEAD --stat
printf '{"ok":true,"summary":"done","files_changed":["a.txt"],"errors":[],"evidence":[{"kind":"file","ref":"a.txt","ok":true}]}' |
  gate --since "$SNAP" --json; echo "gate exit: $?"
# A fixed tether adds to the paths it reads every index entry whose flags hide it from
# status (git ls-files -v: lower-case letters and S; also entries the snapshot's index listed
# clean), or simply compares the HEAD tree's paths with a raw reading of the working tree
# (as the worktree capture does), so limits.conf and skip.txt are observed_unclaimed.
