#!/usr/bin/env bash
# False halt: with any harmless config variable set (a harness's GIT_CONFIG_COUNT for
# color.ui), the second status runs with a cleared environment: no PATH. A repository whose
# clean filter is a tool found on the user's PATH (git-lfs from Homebrew's /opt/homebrew/bin,
# ~/.local/bin) then fails in that status only (required filter: status exits 128), and a
# correct agent in the parent's exact tree is refused, exit 3.
. "$(dirname "$0")/common.sh"
mkdir -p "$T/bin" && printf '#!/bin/sh\ncat\n' >"$T/bin/mylfs" && chmod +x "$T/bin/mylfs"
export PATH=$T/bin:$PATH
cd "$T" && g init -q -b main r && cd r
git config filter.my.clean mylfs && git config filter.my.smudge cat && git config filter.my.required true
echo '*.bin filter=my' >.gitattributes && echo data >a.bin && g add -A && g commit -q -m c1
run handshake.ts >"$T/block"
touch -d '2001-01-01' a.bin                  # stat data changed, content not: the filter runs
set +e
echo "shell status:            [$(git --no-optional-locks status --porcelain)] (no index refresh)"
echo "plain verify:            $(run verify.ts <"$T/block"; echo " (exit $?)")"
echo "harmless GIT_CONFIG_COUNT: $(GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=color.ui GIT_CONFIG_VALUE_0=never run verify.ts <"$T/block" 2>&1 | cut -c1-160; echo " (exit ${PIPESTATUS[0]})")"
# A correct tether prints environment-verified on both verify lines.
