#!/usr/bin/env bash
# Finding 3: "ignored files never" enter a seed, but which files are ignored is read with the
# shared config, which a child writes. A parent whose secret is ignored through the user's
# global ignore file (core.excludesFile's default, $XDG_CONFIG_HOME/git/ignore: the usual
# home of `.env.local`, `.envrc`, editor files) loses that protection for every later
# spawn once a child writes `core.excludesFile` into <common>/config: the next
# `handshake --worktree` records the secret in the seed and checks it out into the new
# child's worktree (and into the shared object store).
# Run from the project root: bash docs/reviews/worktree-8/3-excludesfile-hands-ignored-secret-to-sibling.sh
. "$(dirname "$0")/common.sh"
export XDG_CONFIG_HOME=$WORK/xdg; mkdir -p "$XDG_CONFIG_HOME/git"
printf '.env.local\n' > "$XDG_CONFIG_HOME/git/ignore" # the user's global ignore file
setup
printf 'API_TOKEN=parent-only\n' > "$P/.env.local"
spawn first; C1=$P/wt/first
echo "--- the first child's worktree (spawned before): .env.local is $( [ -e "$C1/.env.local" ] && echo PRESENT || echo absent)"
# The first child, from its worktree: one line in the shared config.
git -C "$C1" config core.excludesFile /dev/null
spawn second; C2=$P/wt/second
echo "--- the second child's worktree: .env.local is $( [ -e "$C2/.env.local" ] && echo PRESENT || echo absent)"
cat "$C2/.env.local" 2>/dev/null
echo "--- in the second child's seed: $(git -C "$P" ls-tree -r --name-only "$SEED" | grep -c '^\.env\.local$') entry"
echo "=== second run: no config write, one negation in <common>/info/exclude (it outranks the global file)"
git -C "$P" config --unset core.excludesFile
common_of "$C1"; printf '!.env.local\n' >> "$COMMON/info/exclude"
spawn third; C3=$P/wt/third
echo "--- the third child's worktree: .env.local is $( [ -e "$C3/.env.local" ] && echo PRESENT || echo absent)"
echo "=== and the third child can now overwrite it: the parent's capture counts it as untracked"
printf 'API_TOKEN=the-childs\n' > "$C3/.env.local"
land_report "$C3" .env.local
echo "--- the parent's .env.local: $(cat "$P/.env.local")"
# Reproduced: absent for the first child, PRESENT (API_TOKEN=parent-only) for the second
# and the third; the third child's land prints `landed: 1 path: .env.local` and the parent's
# secret holds the child's bytes (an `.envrc` would run them under direnv).
# A fixed spawn drops from the capture every path the user's global (and system) ignore
# file ignores, read with that file alone (for example `ls-files --others --ignored
# --exclude-from=<it>`), whatever info/exclude or the repository config say; or refuses a
# spawn when the shared config sets core.excludesFile or info/exclude holds a negation (tether cannot tell the parent's own
# setting from a planted one); docs/worktree.md should name this next to the other
# settings a child can plant.
