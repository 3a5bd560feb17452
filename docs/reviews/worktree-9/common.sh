# Shared setup for the ninth worktree-mode review (worktree-8's common.sh, unchanged below this
# header). Shared setup for the eighth worktree-mode review's reproductions (the repository pin, links,
# the undo, after worktree-7's fixes). Run each script from the project root:
#   bash <this dir>/<script>.sh
# It is worktree-7's common.sh (worktree-5's plus the fork-free watchers) with one helper
# added at the end: with_submodule (a committed submodule sm in $P).
# The binaries run exactly as shipped (deno run --quiet --no-prompt --allow-run=git).
# setup builds a throwaway parent repository at $P (dirty: a staged edit, an unstaged edit,
# an untracked file, an ignored secret) in a mktemp -d directory removed on exit; spawn
# makes children with handshake --worktree. plain_repo and snapshot serve the gate --since
# (shared mode) scripts.
set -u
PROJECT=${PROJECT:-$(pwd)}
export GIT_AUTHOR_NAME=T GIT_AUTHOR_EMAIL=t@example.invalid
export GIT_COMMITTER_NAME=T GIT_COMMITTER_EMAIL=t@example.invalid
DENO=${DENO:-deno}
handshake() { $DENO run --quiet --no-prompt --allow-run=git "$PROJECT/handshake.ts" "$@"; }
verify() { $DENO run --quiet --no-prompt --allow-run=git "$PROJECT/verify.ts" "$@"; }
gate() { $DENO run --quiet --no-prompt --allow-run=git "$PROJECT/gate.ts" "$@"; }
WORK=$(mktemp -d)
PIDS=""
cleanup() {
  for pid in $PIDS; do kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
  chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"
}
trap cleanup EXIT
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
# spawn NAME: spawn one child at $P/wt/NAME; its prompt goes to $WORK/NAME.md, its seed to $SEED
spawn() {
  (cd "$P" && echo "task" | handshake wrap --worktree "$P/wt/$1") > "$WORK/$1.md" || { echo "spawn failed"; exit 1; }
  SEED=$(sed -n "s/^seed: //p" "$WORK/$1.md")
}
# spawn_two: children $P/wt/1 and $P/wt/2 from one seed ($SEED)
spawn_two() {
  (cd "$P" && echo task | handshake wrap --worktree "$P/wt" --count 2 --json) > "$WORK/spawn.json" || { echo "spawn failed"; exit 1; }
  SEED=$(sed -n 's/.*"seed": *"\([0-9a-f]*\)".*/\1/p' "$WORK/spawn.json" | head -1)
  C1=$P/wt/1; C2=$P/wt/2
}
# result FILE...: a SubagentResult claiming the files, with a file evidence item for the first
result() {
  local files; files=$(printf '"%s",' "$@"); files="[${files%,}]"
  printf '{"ok":true,"summary":"done","files_changed":%s,"errors":[],"evidence":[{"kind":"file","ref":"%s","ok":true}]}' "$files" "$1"
}
# plain_repo: a clean repository at $R with one commit (a.txt); shared mode, no worktree
plain_repo() {
  R=$WORK/r; mkdir -p "$R"
  git -C "$R" init -q -b main
  git -C "$R" config gc.auto 0
  printf 'a\n' > "$R/a.txt"
}
# snapshot: the spawn snapshot id of $R now (handshake --context), in $SNAP
snapshot() {
  SNAP=$(cd "$R" && handshake --context --json < /dev/null | sed -n 's/.*"snapshot_id": *"\([0-9a-f]*\)".*/\1/p')
  [ -n "$SNAP" ] || { echo "no snapshot"; exit 1; }
}
# with_f: a committed f.txt of ten lines in $P (after setup)
with_f() {
  seq 1 10 | sed 's/^/line /' > "$P/f.txt"; git -C "$P" add f.txt; git -C "$P" commit -q -m f
}
# kept_land DIR CLAIM...: gate DIR with --land --keep, report in $WORK/first.txt, record id in $LANDED
kept_land() {
  local dir=$1; shift
  (cd "$P" && result "$@" | gate --worktree "$dir" --seed "$SEED" --land --keep) > "$WORK/first.txt" \
    || { echo "first land failed"; cat "$WORK/first.txt"; exit 1; }
  LANDED=$(sed -n 's/^land record: \([0-9a-f]*\).*/\1/p' "$WORK/first.txt")
  [ -n "$LANDED" ] || { echo "no land record printed"; exit 1; }
}
# fixed CMD...: run CMD with the identity and date tether writes its commits with
fixed() {
  env GIT_AUTHOR_NAME=tether GIT_AUTHOR_EMAIL=tether@localhost GIT_AUTHOR_DATE="@0 +0000" \
    GIT_COMMITTER_NAME=tether GIT_COMMITTER_EMAIL=tether@localhost GIT_COMMITTER_DATE="@0 +0000" "$@"
}
# common_of DIR: the common (shared) git directory as git run in the child's DIR reports it, in $COMMON
common_of() {
  COMMON=$(git -C "$1" rev-parse --path-format=absolute --git-common-dir)
}
# land_report DIR CLAIM...: the parent lands DIR (no --keep, no --landed) and prints the
# verdict, land and error lines and gate's exit code
land_report() {
  local dir=$1; shift
  (cd "$P" && result "$@" | gate --worktree "$dir" --seed "$SEED" --land 2>&1) \
    | grep -E "^(verdict|landed|refused|conflict|error|warning|not removed)"
  echo "gate exit: ${PIPESTATUS[0]}"
}
# wait_merged_index: poll $COMMON/objects until a tmp_tether_seed_<uuid> file appears that
# was not there when the watcher started and has no -staged companion: the land's scratch
# index of the merged tree (land.ts makes it after readDrivers and the first check-attr,
# before update-index --refresh and read-tree -m -u). Gives up after about 60 s.
wait_merged_index() {
  local before f n=0
  before=$(ls "$COMMON/objects" | grep '^tmp_tether_seed_' | tr '\n' ' ')
  while [ $n -lt 30000 ]; do
    for f in "$COMMON"/objects/tmp_tether_seed_*; do
      f=${f##*/}
      case "$f" in *.lock|*-staged) continue ;; esac
      case " $before " in *" $f "*) continue ;; esac
      [ -e "$COMMON/objects/$f-staged" ] || [ -e "$COMMON/objects/$f-staged.lock" ] || return 0
    done
    n=$((n + 1))
  done
  return 1
}
# watch_land: poll $COMMON/objects with builtins only (no fork: under load a forking watcher
# is too late) until the land's scratch index of its merged tree appears (a new
# tmp_tether_seed_<uuid> without a -staged companion: after the merge, before the last
# attribute check, the refresh and the checkout). Sets $SCRATCH to the land's scratch index of
# the parent's tree: the newest -staged one seen before (the land's readings of the seed and of
# the child make one each earlier). Names listed in $WATCH_BEFORE are old. Gives up after about
# 3 000 000 polls.
watch_land() {
  local f b seen="" last="" n=0
  while [ $n -lt 3000000 ]; do
    for f in "$COMMON"/objects/tmp_tether_seed_*; do
      b=${f##*/}
      case " $WATCH_BEFORE $seen " in *" $b "*) continue ;; esac
      case "$b" in
        *.lock) continue ;;
        *-staged) seen="$seen $b"; last=${b%-staged}; continue ;;
      esac
      { [ -e "$f-staged" ] || [ -e "$f-staged.lock" ] || [ -z "$last" ]; } && continue
      SCRATCH=$COMMON/objects/$last; return 0
    done
    n=$((n + 1))
  done
  return 1
}
# hold FILE: keep a hard link to FILE's current inode (at $WORK/held), for wait_rewritten
hold() { rm -f "$WORK/held"; ln "$1" "$WORK/held"; }
# wait_rewritten FILE: poll, with shell builtins only (no fork: the child's watcher must be
# quick), until FILE is no longer the inode hold kept (git renamed its lock over it), then
# hold the new one. Gives up after about 2 000 000 polls.
wait_rewritten() {
  local n=0
  while [ $n -lt 2000000 ]; do
    if [ -e "$1" ] && ! [ "$1" -ef "$WORK/held" ]; then hold "$1"; return 0; fi
    n=$((n + 1))
  done
  return 1
}
# wait_locked_or_rewritten FILE: the same, but returns as soon as FILE.lock exists too (a git
# call that writes FILE has started, and read its config); 0 either way, 1 on giving up.
wait_locked_or_rewritten() {
  local n=0
  while [ $n -lt 2000000 ]; do
    [ -e "$1.lock" ] && return 0
    if [ -e "$1" ] && ! [ "$1" -ef "$WORK/held" ]; then hold "$1"; return 0; fi
    n=$((n + 1))
  done
  return 1
}
# wait_lock FILE: poll (builtins only) until FILE.lock exists: a git call that writes FILE has
# started and read its config. wait_unlock FILE: until it is gone again.
wait_lock() { local n=0; while [ ! -e "$1.lock" ] && [ $n -lt 2000000 ]; do n=$((n + 1)); done; [ -e "$1.lock" ]; }
wait_unlock() { local n=0; while [ -e "$1.lock" ] && [ $n -lt 2000000 ]; do n=$((n + 1)); done; [ ! -e "$1.lock" ]; }
# with_submodule: a submodule sm (git submodule add of a one-commit repository at
# $WORK/upstream, holding s.txt), committed in $P (after setup: the commit takes the staged
# edit of a.txt too).
with_submodule() {
  git init -q -b main "$WORK/upstream"; printf 'v1\n' > "$WORK/upstream/s.txt"
  git -C "$WORK/upstream" add -A; git -C "$WORK/upstream" commit -q -m one
  git -C "$P" -c protocol.file.allow=always submodule add -q "$WORK/upstream" sm
  git -C "$P" commit -q -m sm
}
# watch_readback: after watch_land, poll (builtins only) until a new tmp_tether_index_<uuid>
# appears in $COMMON/objects (names in $WATCH_BEFORE are old): the private index of the
# land's read-back (readContents), made once read-tree -m -u has written the files. Gives up
# after about 3 000 000 polls.
watch_readback() {
  local f b n=0
  while [ $n -lt 3000000 ]; do
    for f in "$COMMON"/objects/tmp_tether_index_*; do
      b=${f##*/}
      case " $WATCH_BEFORE " in *" $b "*) continue ;; esac
      [ -e "$f" ] && return 0
    done
    n=$((n + 1))
  done
  return 1
}
