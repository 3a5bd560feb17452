#!/usr/bin/env bash
# Finding 1: the user's ignore file is read "as git finds it, from the global and system
# configuration only", but from a git call started at / (excludes.ts, trustedExcludesFile:
# cwd "/"). A core.excludesFile that the global config sets inside a conditional include
# ([includeIf "gitdir:~/work/"], the usual way to keep work and personal settings apart;
# onbranch: and hasconfig:remote.*.url: the same) never applies at /, so tether reads
# another file than git does in the repository, with git reporting the value's scope as
# "global" there. Two effects:
# Run 1 (no default ignore file): tether has no trusted file at all. A child's one line
# `!.env.local` in <common>/info/exclude hands the parent's secret to the next child, as
# worktree-8 finding 3 did before its fix.
# Run 2 (a default ~/.config/git/ignore exists too, with *.log): tether reads that file,
# which git does not read in this repository; spawn refuses a correct parent, exit 3,
# saying the repository's settings un-ignore debug.log, though the repository sets nothing.
# Run from the project root: bash docs/reviews/worktree-9/1-includeif-excludesfile-missed.sh
. "$(dirname "$0")/common.sh"
export HOME=$WORK/home GIT_CONFIG_GLOBAL=$WORK/home/.gitconfig; unset XDG_CONFIG_HOME
mkdir -p "$HOME/.config/git"
printf '.env.local\n' > "$HOME/work-ignore"
printf '[core]\n\texcludesFile = %s\n' "$HOME/work-ignore" > "$HOME/work.inc"
printf '[includeIf "gitdir:%s/"]\n\tpath = %s\n' "$WORK" "$HOME/work.inc" > "$GIT_CONFIG_GLOBAL"
setup
printf 'API_TOKEN=parent-only\n' > "$P/.env.local"
echo "--- git in the parent: $(git -C "$P" config --show-scope --get-all core.excludesFile | tr '\t' ' '); status shows .env.local: $(git -C "$P" status --porcelain | grep -c 'env.local')"
spawn first; C1=$P/wt/first
echo "--- the first child's worktree: .env.local is $([ -e "$C1/.env.local" ] && echo PRESENT || echo absent)"
common_of "$C1"; printf '!.env.local\n' >> "$COMMON/info/exclude" # the first child's one line
spawn second; C2=$P/wt/second
echo "--- the second child's worktree: .env.local is $([ -e "$C2/.env.local" ] && echo "PRESENT: $(cat "$C2/.env.local")" || echo absent)"
echo "--- in the second child's seed: $(git -C "$P" ls-tree -r --name-only "$SEED" | grep -c '^\.env\.local$') entry"

echo "=== second run: a default ignore file exists too (*.log), which git does not read here"
mv "$P" "$WORK/p1"; setup
printf '*.log\n' > "$HOME/.config/git/ignore"
printf 'debug\n' > "$P/debug.log"
echo "--- git status shows debug.log: $(git -C "$P" status --porcelain | grep -c 'debug.log')"
(cd "$P" && echo task | handshake wrap --worktree "$P/wt/c" 2>&1 >/dev/null) | cut -c1-400
echo "spawn exit: ${PIPESTATUS[0]}"
# Reproduced: run 1, git reports `global …/work-ignore` and hides .env.local; the first
# child is spawned without it, the second (after the info/exclude line) gets
# `API_TOKEN=parent-only` in its worktree and its seed. Run 2: spawn exit 3, "The user's
# ignore file …/.config/git/ignore ignores "debug.log", but the repository's settings do not",
# though the repository sets nothing.
# A fixed lookup asks the value where git asks it: `git config --show-scope --get-all
# core.excludesFile` run in the pinned repository, keeping only global and system records,
# so that `gitdir:` conditions (which depend on the path alone) resolve as they do for git
# there. `onbranch:` and `hasconfig:` depend on HEAD and the repository's config, which a
# child can write: refuse the spawn when the value of a trusted scope comes from such an
# include (`--show-origin`), or name the limit in docs/worktree.md.
