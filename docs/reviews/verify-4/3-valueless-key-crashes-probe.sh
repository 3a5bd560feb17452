#!/usr/bin/env bash
# False halt. git 2.39 dereferences NULL when GIT_TRACE2_CONFIG_PARAMS dumps a setting
# written without '=' (a valid boolean true, e.g. "[pull] rebase"): the traced probe
# segfaults (exit 139) before rev-parse answers. Any user or repository with one such line
# can no longer take a handshake or verify, with the same environment everywhere.
. "$(dirname "$0")/common.sh"
H=$T/home && mkdir -p "$H" && export HOME=$H
printf '[pull]\n\trebase\n' >"$H/.gitconfig"       # valid config: pull.rebase=true
cd "$T" && g init -q -b main r && cd r && g commit -q --allow-empty -m c1
echo "git status:               [$(git status --porcelain)] (exit $?)"
set +e
GIT_TRACE2_EVENT=/dev/null GIT_TRACE2_CONFIG_PARAMS='*' git rev-parse --git-dir >/dev/null 2>&1
echo "traced rev-parse:         exit $?"
out=$(run handshake.ts 2>&1); rc=$?
echo "handshake (parent):       $(printf '%s\n' "$out" | grep -v '^$' | head -2 | cut -c1-110 | tr '\n' ' ') (exit $rc)"
printf '[pull]\n\trebase = true\n' >"$H/.gitconfig"
run handshake.ts >"$T/block" && printf '[pull]\n\trebase\n' >"$H/.gitconfig"
verdict "verify, same tree and env:"
# A correct tether gives a handshake, and environment-verified for the unchanged tree.
