#!/usr/bin/env bash
# The fix compares GIT_REPLACE_REF_BASE through git's trace, and trace2 names a variable only
# when it is set and not empty (tr2_list_env_vars: `if (val && *val)`). git takes an empty
# GIT_REPLACE_REF_BASE as the base "": every ref is then a replace ref, and a packed ref
# whose name is HEAD's commit id (one level, which packed-refs accepts) replaces HEAD's
# commit. Set-but-empty and unset read the same to tether; no second status is taken.
# (Same class as verify-3 finding 3, empty GIT_CONFIG_GLOBAL, for the variables list.)
. "$(dirname "$0")/common.sh"
export HOME=$T/home && mkdir -p "$HOME"
cd "$T" && g init -q -b main r && cd r && echo one >f && g add f && g commit -q -m c1
run handshake.ts >"$T/block"                        # parent: clean tree
echo two >f && g add f                              # the child stages a change
H=$(git rev-parse HEAD) && X=$(g commit-tree -p HEAD -m look-alike "$(git write-tree)")
git pack-refs --all                                 # the child adds "<X> <HEAD id>", sorted
{ head -1 .git/packed-refs; echo "$X $H"; tail -n +2 .git/packed-refs; } >"$T/p" && mv "$T/p" .git/packed-refs
echo "shell status (user's env):        [$(git status --porcelain)]"
echo "shell status GIT_REPLACE_REF_BASE='': [$(GIT_REPLACE_REF_BASE= git status --porcelain 2>/dev/null)]"
verdict "plain verify:"
verdict "GIT_REPLACE_REF_BASE='':" GIT_REPLACE_REF_BASE=
# A correct tether refuses the second (exit 3); it prints environment-verified, exit 0.
