#!/usr/bin/env bash
# Finding 6: the land's read-tree -m -u treats the parent's ignored files as expendable.
# The parent's captured tree (git add -A) never holds its ignored files, so when the
# child's tree has a file at an ignored path, the land overwrites the parent's file
# without a conflict, and a directory of ignored files in the way is deleted. The child
# does not even have to touch .gitignore: `git add -f` (or a commit of it) is enough.
# Here the parent's ignored secret.env (its real credentials) is replaced, and its ignored
# build cache dir out.env/ (ignored by *.env) is wiped to make room for a file.
. "$(dirname "$0")/common.sh"
setup
mkdir -p "$P/out.env"; echo "hours of cached build output" > "$P/out.env/cache.bin"
spawn c1
C=$P/wt/c1
# --- the child's doing: force-add files at paths the parent ignores ---
printf 'SECRET=child-controlled\n' > "$C/secret.env"
printf 'a file where the parent has an ignored directory\n' > "$C/out.env"
git -C "$C" add -f secret.env out.env
git -C "$C" commit -q -m "add config"
# --- the parent lands; .gitignore is unchanged ---
SEED=$(sed -n "s/^seed: //p" "$WORK/c1.md")   # the parent's own record: the block it sent
(cd "$P" && result secret.env out.env | gate --worktree "$C" --seed "$SEED" --land); echo "gate exit: $?"
echo "parent secret.env: $(cat "$P/secret.env")   (was SECRET=hunter2)"
echo "parent out.env/cache.bin: $(cat "$P/out.env/cache.bin" 2>&1)"
# A fixed tether treats every path that exists in the parent but not in its captured
# tree (ignored files and directories) as precious: the land refuses (exit 1, nothing
# changed, the paths named) rather than overwrite it, e.g. by running read-tree with
# --exclude-per-directory unset and checking `git ls-files -o -i --exclude-standard` for
# the landed paths (and their parent directories) first. Expected: secret.env still reads
# SECRET=hunter2 and out.env/cache.bin is intact.
