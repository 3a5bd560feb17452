#!/usr/bin/env bash
# F2 (minor: bad input does work): the early path starts git for any argv that merely
# contains `--since <hex>` and no `--worktree`, before argv is validated. A usage error
# (unknown option, a stray positional), `--help` and `--version` run `git rev-parse` in
# the repository (and, when it answers before gate exits, status and cat-file), and exit
# without waiting for it. Before 31b23fd these lines ran no git at all. A `git` wrapper
# first on PATH logs each call it starts and finishes.
. "$(dirname "$0")/common.sh"
BIN=$WORK/bin; mkdir -p "$BIN"; LOG=$WORK/git.log; REAL=$(command -v git)
cat > "$BIN/git" <<WRAP
#!/bin/sh
sub=\$(for a in "\$@"; do case "\$a" in -*|*=*|*/*) ;; *) echo "\$a"; break;; esac; done)
echo "start \$sub" >> "$LOG"; "$REAL" "\$@"; rc=\$?; echo "end \$sub" >> "$LOG"; exit \$rc
WRAP
chmod +x "$BIN/git"
run() {
  : > "$LOG"
  echo "== $*"
  ( PATH=$BIN:$PATH; export PATH; "$@" < /dev/null > "$WORK/out" 2>&1; echo "   exit=$? lines=$(wc -l < "$WORK/out"): $(head -1 "$WORK/out")" )
  sleep 1
  echo "   git calls: $(tr '\n' ';' < "$LOG")"
}
for g in old_gate gate; do
  echo "##### $g"
  run $g --since "$snap" --bogus
  run $g --since "$snap" stray
  run $g --since "$snap" --since "$snap"
  run $g --since "$snap" --version
done
# This tree: the same exit codes and error lines, but git runs for each line.
# Expected of a correct tether: no git call for a usage error, --help or --version (as
# before 31b23fd): start the early reads after argv has parsed (node:util's parseArgs is
# small next to zod), or at least await or kill them before exiting on a path that does
# not take them.
