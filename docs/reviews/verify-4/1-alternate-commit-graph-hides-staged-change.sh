#!/usr/bin/env bash
# GIT_ALTERNATE_OBJECT_DIRECTORIES is neither probed (the probe asks --git-path objects,
# which an alternate does not change) nor a setting (the trace dump is unchanged), nor in
# STATUS_VARIABLES. git loads a commit-graph from the first object directory that has one,
# alternates included, and trusts it (no checksum or content check on load): the graph's
# root-tree column is what status compares the index against. A repository without its own
# commit-graph (any fresh one: gc/maintenance never ran) plus an alternate holding a graph
# that gives HEAD's commit another root tree hides a staged change from git status.
. "$(dirname "$0")/common.sh"
export HOME=$T/home && mkdir -p "$HOME"
cd "$T" && g init -q -b main r && cd r && echo one >f && g add f && g commit -q -m c1
run handshake.ts >"$T/block"                        # parent: clean tree
echo two >f && g add f                              # the child stages a change
# forge: a graph that says HEAD's commit has the tree of the child's index
ALT=$T/alt && mkdir -p "$ALT/info"
git commit-graph write --reachable
python3 - "$(git rev-parse HEAD^{tree})" "$(git write-tree)" <<'PY'
import sys
d = bytearray(open('.git/objects/info/commit-graph', 'rb').read())
a, b = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2])
i = d.find(a); assert i > 0; d[i:i + len(a)] = b
open('forged', 'wb').write(d)
PY
mv forged "$ALT/info/commit-graph" && rm .git/objects/info/commit-graph
set +e
echo "shell status (user's env):       [$(git status --porcelain)]"
echo "shell status with the alternate: [$(GIT_ALTERNATE_OBJECT_DIRECTORIES=$ALT git status --porcelain)]"
verdict "plain verify:"
verdict "verify with the alternate:" GIT_ALTERNATE_OBJECT_DIRECTORIES="$ALT"
# A correct tether refuses (exit 3) or reports a mismatch on the last line; it prints
# environment-verified, exit 0.
