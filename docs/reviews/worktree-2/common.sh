# Shared setup for the worktree-mode review's reproductions. Run each script from the
# project root:  bash docs/reviews/worktree-2/<script>.sh
# It builds a throwaway parent repository at $P (dirty: a staged edit, an unstaged edit,
# an untracked file, an ignored secret) and spawns children with handshake --worktree.
set -u
PROJECT=${PROJECT:-$(pwd)}
export GIT_AUTHOR_NAME=T GIT_AUTHOR_EMAIL=t@example.invalid
export GIT_COMMITTER_NAME=T GIT_COMMITTER_EMAIL=t@example.invalid
DENO=${DENO:-deno}
handshake() { $DENO run --quiet --no-prompt --allow-run=git "$PROJECT/handshake.ts" "$@"; }
verify() { $DENO run --quiet --no-prompt --allow-run=git "$PROJECT/verify.ts" "$@"; }
gate() { $DENO run --quiet --no-prompt --allow-run=git "$PROJECT/gate.ts" "$@"; }
WORK=$(mktemp -d)
trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
setup() {
  P=$WORK/p; mkdir -p "$P"
  git -C "$P" init -q -b main
  git -C "$P" config gc.auto 0
  printf '/wt/\n*.env\n' > "$P/.gitignore"
  printf 'one\ntwo\nthree\n' > "$P/a.txt"
  printf 'keep me\n' > "$P/b.txt"
  git -C "$P" add -A && git -C "$P" commit -q -m base
  printf 'one\ntwo\nthree\nstaged\n' > "$P/a.txt"; git -C "$P" add a.txt
  printf 'keep me\nunstaged\n' > "$P/b.txt"
  printf 'untracked\n' > "$P/u.txt"
  printf 'SECRET=hunter2\n' > "$P/secret.env"
}
# spawn NAME: spawn one child at $P/wt/NAME; prints its prompt into $WORK/NAME.md
spawn() {
  (cd "$P" && echo "task" | handshake wrap --worktree "$P/wt/$1") > "$WORK/$1.md" || { echo "spawn failed"; exit 1; }
}
# result FILE...: a SubagentResult claiming the files, with a file evidence item for the first
result() {
  local files; files=$(printf '"%s",' "$@"); files="[${files%,}]"
  printf '{"ok":true,"summary":"done","files_changed":%s,"errors":[],"evidence":[{"kind":"file","ref":"%s","ok":true}]}' "$files" "$1"
}
