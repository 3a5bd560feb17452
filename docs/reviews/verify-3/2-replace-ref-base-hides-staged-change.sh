#!/usr/bin/env bash
# verify's status is the one call that honours replace refs (keepReplaceObjects, for parity
# with the user's shell), and it inherits the caller's GIT_REPLACE_REF_BASE and
# GIT_NO_REPLACE_OBJECTS, neither in CONFIG_VARIABLES. With GIT_REPLACE_REF_BASE naming a
# namespace the user's shell never reads, HEAD's commit is served as a look-alike whose tree
# is the changed one, so a staged change (not the block's clean tree) prints nothing.
. "$(dirname "$0")/common.sh"
cd "$T" && g init -q -b main r && cd r && echo one >a.txt && g add a.txt && g commit -q -m c1
run handshake.ts >"$T/block"                 # parent: clean at c1
c1=$(git rev-parse HEAD)
echo evil >a.txt && git add a.txt            # the child's tree: a.txt changed and staged
r=$(g commit-tree -p "$c1" -m lookalike "$(git write-tree)")
git update-ref "refs/shadow/$c1" "$r"        # not under refs/replace/: the shell sees nothing
set +e
echo "user's shell status: [$(git status --porcelain)]"
echo "plain verify:        $(run verify.ts <"$T/block" | head -1)"
echo "GIT_REPLACE_REF_BASE=refs/shadow/: $(GIT_REPLACE_REF_BASE=refs/shadow/ run verify.ts <"$T/block"; echo " (exit $?)")"
# A correct tether halts (fingerprint: "M  a.txt") or refuses (exit 3) on the second line.
