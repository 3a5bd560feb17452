#!/usr/bin/env bash
# usage: h.sh NAME 'setup-extra' 'child actions' [claims-json]
set -uo pipefail
ROOT=$(pwd); HERE=$ROOT/docs/reviews/gate-5
T=$(mktemp -d)
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
tool() { deno run --quiet --no-prompt --allow-run=git "$ROOT/$1.ts" "${@:2}"; }
git init -q -b main "$T/r" && cd "$T/r"
mkdir -p lib && echo a1 >a.ts && echo b1 >b.ts && echo c1 >lib/c.ts && touch -d "2020-01-01" a.ts b.ts lib/c.ts && git add . && git commit -q -m c1
eval "$2"
since=$(echo task | tool handshake wrap --context | sed -n 's/^snapshot: //p')
echo a2 >a.ts && git commit -q -m child a.ts
eval "$3"
printf '{"ok":true,"summary":"a","files_changed":["a.ts"],"errors":[],"evidence":[{"kind":"commit","ref":"%s","ok":true}]}' "$(git rev-parse HEAD)" >"$T/result"
echo "== $1"
echo "status: [$(git status --porcelain --untracked-files=all | tr '\n' ' ')]"
tool gate --since "$since" --json <"$T/result" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("verdict",d["verdict"], "changes", d.get("changes"), d["reasons"])'
