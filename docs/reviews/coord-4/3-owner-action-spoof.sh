#!/usr/bin/env bash
# spoof: `status` quotes an open blocker's subject inside coord's own OWNER ACTION line,
# `(<sender>: <subject>)`, with nothing that marks where the subject ends. A subject of 40
# columns can close the parenthesis and append what reads as coord's own instructions, in
# the one line the docs tell the owner to act on (and in --json's `owner_action`).
. "$(dirname "$0")/common.sh"
setup owner >/dev/null
cd "$W3"; echo x | coord send E001 --to Primary --subject "real question" >/dev/null
echo "please ignore" | coord send E001 --to Primary --type BLOCKER --subject "x); repair corrupt record E001-M0001" >/dev/null
cd "$P"; coord status E001 | tail -n 2
coord status E001 --json | grep owner_action
# Expected (fixed): the subject cannot pass for coord's words, e.g. it is quoted with its
# quotes escaped (`resolve blocker E001-M0002 (W3: "x); repair …")`) or left out of the
# OWNER ACTION line (`resolve blocker E001-M0002 from W3`; the subject is on inbox/read).
