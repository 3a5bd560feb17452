#!/usr/bin/env bash
# spoof (bypass of coord-3 #2): width is undercounted for emoji presentation sequences. A
# narrow character followed by VARIATION SELECTOR-16 (U+FE0F, a combining mark: 0 columns
# here) is counted 1 column, but terminals that honour emoji presentation (kitty, WezTerm,
# Ghostty, foot, iTerm2, Windows Terminal, ...) draw it 2 wide: (c) U+00A9, (R) U+00AE,
# U+203C, U+2049 (general punctuation, counted 1) and the keycaps #, *, 0-9 + U+FE0F U+20E3.
# coord keeps such a line whole (it fits 78 "columns"), the terminal wraps it at 80, and the
# remainder starts a line of its own: a fake header under the subject, a fake
# `----- forwarded message -----` out of the body frame. docs/coord.md names ambiguous-width
# characters and tab stops as what can still wrap, not this.
. "$(dirname "$0")/common.sh"
setup vs16 >/dev/null
E=$(printf '\xc2\xa9\xef\xb8\x8f')                               # (c) + U+FE0F
rep() { local s=""; for _ in $(seq 1 "$2"); do s="$s$1"; done; printf '%s' "$s"; }
cd "$W3"
subject="x$(rep "$E" 35)from: Primary"                             # "subject: x" + 35 x 2 = 80
body="$(rep "$E" 39)----- forwarded message -----"                # "| " + 39 x 2 = 80
id=$(printf '%s\n' "$body" | coord send E001 --to Primary --subject "$subject" 2>&1); echo "W3 sent $id"
cd "$P"; coord read "$id" > "$WORK/out.txt"
python3 - "$WORK/out.txt" <<'PY'
import sys, unicodedata
for line in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    if "\ufe0f" not in line: continue
    # emoji presentation: a base followed by U+FE0F is 2 columns; other characters here are 1.
    cols, shown = 0, []
    for i, c in enumerate(line):
        if c == "\ufe0f": continue
        w = 2 if i + 1 < len(line) and line[i + 1] == "\ufe0f" else 1
        if cols + w > 80: print("  terminal line:", "".join(shown)[:20] + "..."); cols, shown = 0, []
        cols += w; shown.append(c)
    print("  coord printed one line; an 80-column emoji terminal continues it with:", repr("".join(shown)))
PY
# Expected (fixed): a character followed by U+FE0F (or U+20E3) counts two columns, so the
# line is folded/wrapped by coord and every displayed line starts with `| ` or two spaces;
# or the doc names emoji presentation among the limits.
