# Shared setup for the fifth coord review's reproductions. Run each script from the
# project root:  bash docs/reviews/coord-5/<script>.sh
# It builds a throwaway repository: Primary at $ROOT/p, lanes W1 W2 W3 at $ROOT/p/lanes/Wn,
# W1 and W2 blind, W1 and W2 each with one commit after base.
set -u
PROJECT=${PROJECT:-$(pwd)}
export GIT_AUTHOR_NAME=T GIT_AUTHOR_EMAIL=t@example.invalid
export GIT_COMMITTER_NAME=T GIT_COMMITTER_EMAIL=t@example.invalid
if command -v deno >/dev/null 2>&1; then DENO=${DENO:-deno}; else DENO=${DENO:-"npx -y deno@2.9.6"}; fi
coord() { $DENO run -q --no-prompt --allow-run=git --allow-read --allow-write "$PROJECT/coord.ts" "$@"; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
setup() {
  ROOT=$WORK/$1; rm -rf "$ROOT"; mkdir -p "$ROOT/p"; P=$ROOT/p
  git -C "$P" init -q -b main
  git -C "$P" config gc.auto 0
  printf '/lanes/\n' > "$P/.gitignore"; echo "problem" > "$P/problem.md"
  git -C "$P" add -A && git -C "$P" commit -q -m base
  BASE=$(git -C "$P" rev-parse HEAD)
  write_status "blind: W1 W2"
  for l in W1 W2 W3; do git -C "$P" worktree add -q -b "$(echo $l | tr A-Z a-z)" "lanes/$l" main; done
  W1=$P/lanes/W1; W2=$P/lanes/W2; W3=$P/lanes/W3
  mkdir -p "$W1/proof"; echo "W1 secret: the answer is 42" > "$W1/proof/w1.md"
  git -C "$W1" add -A && git -C "$W1" commit -q -m "W1 secret draft"
  A=$(git -C "$W1" rev-parse HEAD)
  mkdir -p "$W2/proof"; echo "W2 work" > "$W2/proof/w2.md"
  git -C "$W2" add -A && git -C "$W2" commit -q -m "W2 work"
  B=$(git -C "$W2" rev-parse HEAD)
}
# write_status "extra lines..." : commit a new STATUS on main from Primary
write_status() {
  { echo "lane: W1 lanes/W1"; echo "lane: W2 lanes/W2"; echo "lane: W3 lanes/W3"; echo "base: $BASE"; for x in "$@"; do echo "$x"; done; } > "$P/STATUS"
  git -C "$P" add STATUS && git -C "$P" commit -q -m "STATUS update"
}
