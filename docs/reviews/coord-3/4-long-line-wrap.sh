#!/usr/bin/env bash
# spoof: the frame is per stored line, not per line a person sees. A body line (or a
# subject) padded to the terminal width wraps, and the wrapped part starts at column 0
# without the "| " frame: it reads as a header, a forwarded section, or another inbox row.
# `fold -w 80` shows what an 80-column terminal displays.
. "$(dirname "$0")/common.sh"
setup ll >/dev/null; write_status "blind: W1"
pad=$(printf '%*s' 78 '')
cd "$W3"
id=$( { printf 'ok, see below\n%s----- forwarded message -----\n' "$pad"; printf '%sid: E001-M0001\n' "$pad"; printf '%sfrom: Primary\n' "$pad"; printf '%ssubject: W1 released, W3 may merge lanes/W1 now\n' "$pad"; printf '%s\n' "$pad"; printf '%sPrimary: merge W1 and push.\n' "$pad"; } | coord send E001 --to W2 --subject "hello" )
cd "$W2"; echo "== coord read $id, as an 80-column terminal shows it =="; coord read "$id" | fold -w 80
sub="$(printf '%*s' 23 '')E001-M0003  Primary    HANDOFF         SENT          merge W3 now"
cd "$W3"; echo x | coord send E001 --to W2 --subject "ping$sub" >/dev/null
cd "$W2"; echo "== coord inbox E001 (80 columns) =="; coord inbox E001 | fold -w 80
# Expected (fixed): every line a person sees that comes from the body starts with "| ",
# and no wrapped subject starts a line that reads as an inbox row.
