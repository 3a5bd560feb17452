#!/usr/bin/env bash
# ownership (bypass of coord-3 #5): the amend's "source" is the commit of the entry before it
# in the lane's HEAD reflog, not the commit git actually amended. Moving the lane's branch
# where its HEAD reflog does not see it (update-ref run against the common dir, whose HEAD is
# main's) leaves that entry at the lane's own commit V; `commit --amend` then replaces W1's
# hidden A, yet coord records V as the source. W3's reflog shows only `commit:` and
# `commit (amend):`; W3 hands off A' (W1's tree, author, message and parents).
# (`git reset --hard w1; git reset --soft <own V>; git commit --amend` does the same with
# moves in the reflog: the documented reset --soft limit, now with an amend.)
. "$(dirname "$0")/common.sh"
setup amend >/dev/null; write_status "blind: W1"
cd "$W3"; echo v > v.md; git add v.md; git commit -q -m "W3 own work"   # V, same parent as A
echo "W3 hands off A directly: $(echo x | coord handoff E001 --to Primary --sha "$A" --path proof/w1.md --subject s 2>&1)"
git --git-dir="$(git rev-parse --git-common-dir)" update-ref refs/heads/w3 w1
git read-tree -u --reset HEAD
git commit -q --amend --no-edit; A2=$(git rev-parse HEAD)
git reflog -3 --format='    W3 reflog: %gs'
echo "    A' parents = A's: $([ "$(git rev-parse "$A2^@")" = "$(git rev-parse "$A^@")" ] && echo yes); tree = A's: $([ "$(git rev-parse "$A2^{tree}")" = "$(git rev-parse "$A^{tree}")" ] && echo yes); author: $(git log -1 --format='%s' "$A2")"
echo "W3 hands off A': $(echo x | coord handoff E001 --to Primary --sha "$A2" --path proof/w1.md --subject mine 2>&1)"
# Expected (fixed): refused, as A is. E.g. an amend owns only when its entry's recorded old
# value (git's own, `%H` of @{n+1} is not it) is the commit it replaced, or the source is
# taken from what git records (the entry's old oid), or the doc says the amend rule holds only
# against the plain `reset --hard; commit --amend` sequence.
