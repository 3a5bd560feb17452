#!/usr/bin/env bash
# environmentSettings compares settings(...).join("\n"): entries "scope\tkey\tvalue" joined
# with newlines. A config value may hold a newline (and tabs), which the trace reports
# faithfully, so one entry can spell two: with GIT_CONFIG_GLOBAL naming a file whose
#   core.excludesFile = "~/.gitignore_global\nglobal\tuser.name\tU"
# the caller's sorted list joins to exactly the clean probe's (the user's real
# core.excludesfile and user.name entries, adjacent once sorted). No difference is seen, no
# second status is taken, and status reads another ignore file: the one at the path
# "~/.gitignore_global<NL>global<TAB>user.name<TAB>U", which the child writes.
# The user's config is an ordinary one: a global ignore file, and any global key sorting
# right after core.excludesfile (user.name here).
. "$(dirname "$0")/common.sh"
H=$T/home && mkdir -p "$H" && export HOME=$H   # the user's home, for parent and child alike
printf '[core]\n\texcludesFile = ~/.gitignore_global\n[user]\n\tname = U\n' >"$H/.gitconfig"
echo '*.tmp' >"$H/.gitignore_global"
cd "$T" && g init -q -b main r && cd r && g commit -q --allow-empty -m c1
run handshake.ts >"$T/block"                        # parent: clean
echo x >evil.txt                                    # the child's tree is not the block's
printf '[core]\n\texcludesFile = "~/.gitignore_global\\nglobal\\tuser.name\\tU"\n' >"$T/evil.cfg"
printf 'evil.txt\n' >"$H/.gitignore_global"$'\n'"global"$'\t'"user.name"$'\t'"U"
echo "shell status (user's config):   [$(git status --porcelain)]"
echo "shell status, GIT_CONFIG_GLOBAL: [$(GIT_CONFIG_GLOBAL=$T/evil.cfg git status --porcelain)]"
verdict "plain verify:"
printf '[core]\n\texcludesFile = ~/plain-ignore\n[user]\n\tname = U\n' >"$T/plain.cfg" && echo evil.txt >"$H/plain-ignore"
verdict "control, plain other ignore file:" GIT_CONFIG_GLOBAL="$T/plain.cfg"
verdict "GIT_CONFIG_GLOBAL=evil.cfg:" GIT_CONFIG_GLOBAL="$T/evil.cfg"
# A correct tether refuses the second (exit 3); it prints environment-verified, exit 0.
