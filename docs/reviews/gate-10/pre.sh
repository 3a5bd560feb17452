# prelude: sourced by f1.sh … f7.sh (ROOT: the tether checkout, by default the one this file is in)
ROOT=${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}
set -u; export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
tool() { deno run --quiet --no-prompt --allow-run=git "$ROOT/$1.ts" "${@:2}"; }
cd "$(mktemp -d)" && git init -q -b main r && cd r
echo a1 >a.ts; echo b1 >b.ts; git add .; git commit -qm c1
spawn() { SINCE=$(echo task | tool handshake wrap --context | sed -n 's/^snapshot: //p'); }
# child result: claims a.ts + $1..., file evidence for b.ts
gate() { local c=""; [ $# -gt 0 ] && c=$(printf ",\"%s\"" "$@"); printf '{"ok":true,"summary":"s","files_changed":["a.ts"%s],"errors":[],"evidence":[{"kind":"commit","ref":"%s","ok":true},{"kind":"file","ref":"b.ts","ok":true}]}' "$c" "$(git rev-parse HEAD)" |
  tool gate --since "$SINCE" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["verdict"], d["changes"], [(e["ref"][:6],e["status"]) for e in d["evidence"]], d["reasons"])'; }
