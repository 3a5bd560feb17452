#!/usr/bin/env bash
# terminal escapes (low): `--json` writes C1 controls, bidi overrides and line separators raw
# (JSON.stringify escapes only U+0000-U+001F). U+009B is the 8-bit CSI: xterm and other
# terminals that act on C1 controls in UTF-8 run `<U+009B>2J` (erase the screen), `<U+009B>1A`
# (cursor up: overwrite coord's earlier lines) from a subject or body that a person lists with
# `coord inbox --json` / `coord read --json`. The human views escape exactly these characters.
. "$(dirname "$0")/common.sh"
setup json >/dev/null
cd "$W3"; csi=$(printf '\xc2\x9b')
id=$(printf 'body %s1A%s2K\n' "$csi" "$csi" | coord send E001 --to Primary --subject "hi ${csi}2J" 2>&1); echo "W3 sent $id"
cd "$P"
echo "inbox (human): $(coord inbox E001)"
echo "raw U+009B bytes (c2 9b) in 'coord inbox --json': $(coord inbox E001 --json | od -An -tx1 | tr -d '\n' | grep -o 'c2 9b' | wc -l)"
echo "raw U+009B bytes (c2 9b) in 'coord read --json':  $(coord read "$id" --json | od -An -tx1 | tr -d '\n' | grep -o 'c2 9b' | wc -l)"
# Expected (fixed): --json writes every character the human views escape as a JSON \u escape
# (\u009b, \u202e, \u2028, ...): the same JSON value, exact after parsing, and nothing a
# terminal acts on (0 raw bytes above); or the doc warns that --json is not for terminals.
