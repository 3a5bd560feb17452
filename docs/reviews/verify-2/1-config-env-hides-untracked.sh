#!/usr/bin/env bash
# verify's status runs with the caller's GIT_CONFIG_COUNT / GIT_CONFIG_PARAMETERS /
# GIT_CONFIG_GLOBAL, which the probes (with and without the caller's environment) never
# compare: `status.showUntrackedFiles=no` in the environment hides an untracked file the
# block's tree does not have, and verify prints `match`. Pre-existing: 338658b does the
# same (printed second); verify-1's design note named the config, not the environment.
. "$(dirname "$0")/common.sh"
cd "$T" && g init -q -b main r && cd r && g commit -q --allow-empty -m c1
run handshake.ts >"$T/block" # clean
echo x >evil.txt             # not the block's tree
mkdir "$T/old" && (cd "$ROOT" && git archive 338658b) | tar -x -C "$T/old"
set +e
for root in "$ROOT" "$T/old"; do
  echo "plain:         $(ROOT=$root run verify.ts <"$T/block" | head -1)"
  echo "with env conf: $(GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=status.showUntrackedFiles GIT_CONFIG_VALUE_0=no ROOT=$root run verify.ts <"$T/block"; echo " (exit $?)")"
done
# A correct tether halts (mismatch on parent_dirty_fingerprint) or refuses the environment.
