#!/usr/bin/env bash
# Finding 1: the land's "ignored in the way" check looks at each landed path and the
# directories above it, never below it. When the child replaces a directory by a file,
# read-tree -m -u removes the parent's directory, and an ignored file inside it (here the
# parent's real mix/s.env, ignored by *.env) is deleted without a refusal. The parent's
# `ls-files --others --ignored --directory` names it as mix/s.env (the directory also holds
# a tracked file, so git does not collapse it to mix/), which matches neither `mix` nor
# an ancestor of `mix`.
. "$(dirname "$0")/common.sh"
setup
mkdir -p "$P/mix"; echo tracked > "$P/mix/t.txt"
git -C "$P" add mix/t.txt; git -C "$P" commit -q -m mix mix/t.txt
echo "SECRET=only copy" > "$P/mix/s.env"          # the parent's ignored secret
spawn c1
C=$P/wt/c1
SEED=$(sed -n "s/^seed: //p" "$WORK/c1.md")
# --- the child's doing: replace the directory mix/ by a file (a legitimate-looking change)
rm -rf "$C/mix"; echo "a file now" > "$C/mix"
(cd "$P" && result mix mix/t.txt | gate --worktree "$C" --seed "$SEED" --land); echo "gate exit: $?"
echo "parent mix/s.env: $(cat "$P/mix/s.env" 2>&1)   (was SECRET=only copy)"
# A fixed tether refuses the land (exit 1, nothing changed, mix/s.env named): an ignored
# entry at, above, or BELOW a path the land writes or deletes is in the way (check every
# ignored entry that has a landed path as a prefix, or run read-tree without
# --exclude-per-directory so git itself refuses to remove untracked files).
