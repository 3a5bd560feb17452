#!/usr/bin/env bash
# The v2 (--exact) path: the seed leaves out what the user's ignore file ignores, and that
# file is found from the caller's XDG_CONFIG_HOME/HOME (trustedExcludesFile's traceEnv), while
# the v1 half shares finding 1's gap. A child whose XDG_CONFIG_HOME names an ignore file the
# parent did not have gets a content-exact "match" on a tree with an extra file.
. "$(dirname "$0")/common.sh"
cd "$T" && g init -q -b main r && cd r && echo one >a.txt && g add a.txt && g commit -q -m c1
run handshake.ts --exact >"$T/block"     # parent: clean, content seed
echo x >evil.txt
mkdir -p "$T/x/git" && echo evil.txt >"$T/x/git/ignore"
set +e
echo "plain verify:           $(run verify.ts <"$T/block" 2>/dev/null | head -1)"
echo "XDG_CONFIG_HOME=<x>:    $(XDG_CONFIG_HOME=$T/x run verify.ts <"$T/block" 2>&1; echo " (exit $?)")"
# A correct tether halts or refuses on the second line.
