#!/usr/bin/env bash
# hang / denial: any lane can plant one file named with a high number in the shared store
# (msgs/99999999.json, even an empty one). Readers take the listing's highest number as a
# hint past gaps and probe (lstat) and list every slot up to it as "the record is missing";
# senders start after it and fall off MAX_SEQ.
. "$(dirname "$0")/common.sh"
setup hs >/dev/null
cd "$W1"; echo hi | coord send E001 --to Primary --subject real >/dev/null
MSGS=$(git rev-parse --path-format=absolute --git-common-dir)/coord-lite/E001/msgs
for n in 00020000 00200000 99999999; do
  touch "$MSGS/$n.json"
  cd "$P"; s=$(date +%s%N); out=$(timeout 60 $DENO run -q --no-prompt --allow-run=git --allow-read --allow-write "$PROJECT/coord.ts" inbox E001 2>&1); rc=$?; e=$(date +%s%N)
  echo "planted $n.json: Primary's inbox took $(( (e-s)/1000000 )) ms, rc=$rc, $(printf '%s\n' "$out" | wc -l) lines; last: $(printf '%s\n' "$out" | tail -1 | cut -c1-100)"
done
cd "$W2"; s=$(date +%s%N); timeout 30 $DENO run -q --no-prompt --allow-run=git --allow-read --allow-write "$PROJECT/coord.ts" wait E001 --timeout 1s >/dev/null 2>&1; rc=$?; e=$(date +%s%N)
echo "W2: coord wait E001 --timeout 1s took $(( (e-s)/1000000 )) ms, rc=$rc (5 = timed out as asked, 124 = killed at 30 s)"
cd "$W1"; echo "W1 sends after the plant: $(echo hi | coord send E001 --to Primary --subject again 2>&1)"
# Expected (fixed): inbox stays fast and shows the one real message (the planted file
# reported once as corrupt); send still succeeds. rc=124 means timeout killed the reader.
