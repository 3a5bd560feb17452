#!/usr/bin/env bash
# ownership (laundering): `git reset --hard A` (W1's unreleased commit) then
# `git commit --amend --no-edit` is a consistent `commit (amend)` entry (the old value A
# has the same parents as the new commit), so W3 "makes" A': W1's tree, W1's author line
# and message, W1's commit not in its history. W3 hands W1's unreleased proof to Primary
# as its own; once Primary releases "W3's" A', every non-blind lane reads W1's proof.
. "$(dirname "$0")/common.sh"
setup am >/dev/null; write_status "blind: W1"
cd "$W3"; echo "W3 hands off A directly: $(echo x | coord handoff E001 --to Primary --sha "$A" --path proof/w1.md --subject s 2>&1)"
git reset -q --hard "$A"; git commit -q --amend --no-edit; A2=$(git rev-parse HEAD)
git reflog -2 --format='    W3 reflog: %gs'; echo "    A' author: $(git log -1 --format='%an <%ae> %ad' "$A2"); tree same as A: $( [ "$(git rev-parse "$A2^{tree}")" = "$(git rev-parse "$A^{tree}")" ] && echo yes)"
id=$(echo "see attached" | coord handoff E001 --to Primary --sha "$A2" --path proof/w1.md --subject "my proof" 2>&1); echo "W3 hands off A': $id"
cd "$P"; coord read "$id" | grep -E '^(from|artifact-path|artifact-check)'
write_status "blind: W1" "released: W3 $A2"
cd "$W2"; echo "after Primary releases W3's A', W2 reads W1's unreleased file via coord: $(echo x | coord handoff E001 --to Primary --sha "$A2" --path proof/w1.md --subject s 2>&1)"
# Expected (fixed): W3 is refused A' as it is refused A (an amend of a commit W3 may not
# inspect is not W3's creation).
