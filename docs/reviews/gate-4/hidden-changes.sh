#!/usr/bin/env bash
# Three ways a child made git status silent about a change it did not claim, so that
# gate --since did not observe it: a forged commit-graph (HEAD's commit given the tree of
# the child's index), and the assume-unchanged and skip-worktree bits. Run from the
# project root: bash docs/reviews/gate-4/hidden-changes.sh
set -euo pipefail
ROOT=$(pwd)
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
tool() { deno run --quiet --no-prompt --allow-run=git "$ROOT/$1.ts" "${@:2}"; }
case_() { # $1: name; $2: what the child does to hide b.ts
  rm -rf "$T/r" && git init -q -b main "$T/r" && cd "$T/r"
  echo a1 >a.ts && echo b1 >b.ts && git add . && git commit -q -m c1
  since=$(echo task | tool handshake wrap --context | sed -n 's/^snapshot: //p')
  echo a2 >a.ts && git commit -q -m child a.ts && echo b2 >b.ts
  eval "$2"
  printf '{"ok":true,"summary":"a","files_changed":["a.ts"],"errors":[],"evidence":[{"kind":"commit","ref":"%s","ok":true}]}' \
    "$(git rev-parse HEAD)" >"$T/result"
  echo "$1: git status [$(git status --porcelain)], gate: $(tool gate --since "$since" --json <"$T/result" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["changes"]["observed_unclaimed"])')"
  cd "$ROOT"
}
forge='git add b.ts && git commit-graph write --reachable && python3 - "$(git rev-parse HEAD^{tree})" "$(git write-tree)" <<PY
import sys
p = ".git/objects/info/commit-graph"
d = bytearray(open(p, "rb").read()); a, b = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2])
i = d.find(a); d[i:i + len(a)] = b; open(p, "wb").write(d)
PY'
case_ "forged commit-graph" "$forge"
case_ "assume-unchanged" "git update-index --assume-unchanged b.ts"
case_ "skip-worktree" "git update-index --skip-worktree b.ts"
# A correct gate lists ['b.ts'] on each line; before the fix each printed [].
