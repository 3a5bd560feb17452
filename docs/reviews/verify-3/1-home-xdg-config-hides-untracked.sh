#!/usr/bin/env bash
# F1's fix refuses status-changing config only when one of six GIT_CONFIG_* / GIT_ATTR_*
# variables is set. HOME and XDG_CONFIG_HOME name the global config and the default global
# ignore/attributes files just as GIT_CONFIG_GLOBAL does, are never checked, and are even kept
# for the "clean" second status. A subagent whose HOME or XDG_CONFIG_HOME differs from its
# parent's (a sandboxed home) gets a false match on an untracked file the parent's tree lacks.
. "$(dirname "$0")/common.sh"
cd "$T" && g init -q -b main r && cd r && g commit -q --allow-empty -m c1
run handshake.ts >"$T/block"            # parent: clean tree, the user's own HOME
echo x >evil.txt                         # the child's tree is not the block's
mkdir -p "$T/h" "$T/x/git"
printf '[status]\n\tshowUntrackedFiles = no\n' >"$T/h/.gitconfig"
echo 'evil.txt' >"$T/x/git/ignore"
set +e
echo "plain:                         $(run verify.ts <"$T/block" | head -1)"
echo "GIT_CONFIG_GLOBAL (the fix):   $(GIT_CONFIG_GLOBAL=$T/h/.gitconfig run verify.ts <"$T/block" 2>&1 | head -1)"
echo "HOME=<dir with .gitconfig>:    $(HOME=$T/h run verify.ts <"$T/block"; echo " (exit $?)")"
echo "XDG_CONFIG_HOME=<git/ignore>:  $(XDG_CONFIG_HOME=$T/x run verify.ts <"$T/block"; echo " (exit $?)")"
echo "HOME + harmless GIT_CONFIG_*: $(HOME=$T/h GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=color.ui GIT_CONFIG_VALUE_0=never run verify.ts <"$T/block"; echo " (exit $?)")"
# A correct tether halts (mismatch on parent_dirty_fingerprint) or refuses (exit 3) in every
# line but the first; here the last three print environment-verified, exit 0.
