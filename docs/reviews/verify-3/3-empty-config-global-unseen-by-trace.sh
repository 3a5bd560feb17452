#!/usr/bin/env bash
# git's GIT_TRACE2_ENV_VARS reports a variable only when its value is non-empty (trace2's
# tr2_list_env_vars: `if (val && *val)`), but git acts on some empty values: an empty
# GIT_CONFIG_GLOBAL (or GIT_CONFIG_SYSTEM) names no file, so the global (system) config is
# not read at all, as with /dev/null. The probe never sees it, no second status is taken.
# (a) the refusal the fix gives for /dev/null is not given for "" (same effect on git).
# (b) a false match where dropping the user's global config hides a file: the user's
#     ~/.gitconfig names its own core.excludesFile, so git's default ~/.config/git/ignore
#     (here a stale one ignoring evil.txt) is only read once the global config is gone.
. "$(dirname "$0")/common.sh"
H=$T/home && mkdir -p "$H/.config/git"          # the user's home, for parent and child alike
printf '[core]\n\texcludesFile = ~/.gitignore_global\n' >"$H/.gitconfig"
echo '*.tmp' >"$H/.gitignore_global"
echo 'evil.txt' >"$H/.config/git/ignore"       # stale default file, shadowed by the above
export HOME=$H
cd "$T" && g init -q -b main r && cd r && g commit -q --allow-empty -m c1
run handshake.ts >"$T/block"                     # parent: clean
echo x >evil.txt                                  # the child's tree is not the block's
set +e
echo "shell status (user's config):  [$(git status --porcelain)]"
echo "shell status GIT_CONFIG_GLOBAL='': [$(GIT_CONFIG_GLOBAL= git status --porcelain)]"
echo "plain verify:                      $(run verify.ts <"$T/block" | head -1)"
echo "GIT_CONFIG_GLOBAL=/dev/null:       $(GIT_CONFIG_GLOBAL=/dev/null run verify.ts <"$T/block" 2>&1 | head -1 | cut -c1-80)..."
echo "GIT_CONFIG_GLOBAL='':              $(GIT_CONFIG_GLOBAL= run verify.ts <"$T/block"; echo " (exit $?)")"
# A correct tether treats "" as it treats /dev/null (exit 3) on the last line; it prints
# environment-verified, exit 0.
