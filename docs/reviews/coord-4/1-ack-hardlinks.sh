#!/usr/bin/env bash
# denial (bypass of coord-3 #1): acknowledgement records are not bounded like message slots.
# A reader validates every `acks/<id>.<LANE>.json` of a message it sent whatever <LANE> is
# (any name matching the lane pattern, a lane that does not exist included), reading each up
# to 8 MiB. Hardlinks of one 8 MiB junk file cost no disk, so a few hundred planted names
# make every `inbox`/`status` of that sender read gigabytes, and `wait` overshoots its
# timeout: the deadline guard (WAIT_GRACE_MS) covers the walk over msgs/, not readAcks.
. "$(dirname "$0")/common.sh"
N=${N:-100}
setup acks >/dev/null
cd "$W3"; id=$(echo hi | coord send E001 --to Primary --subject "W3 asks" 2>&1); echo "W3 sent $id"
acks=$P/.git/coord-lite/E001/acks; mkdir -p "$acks"
head -c $((8*1024*1024 - 16)) /dev/zero | tr '\0' ' ' > "$acks/junk"
for i in $(seq 1 "$N"); do ln "$acks/junk" "$acks/$id.Z$i.json"; done
echo "planted $N hardlinks of one 8 MiB file (disk: $(du -sh "$acks" | cut -f1))"
t0=$(date +%s.%N); coord wait E001 --timeout 1s >/dev/null 2>&1; rc=$?; t1=$(date +%s.%N)
echo "W3: coord wait E001 --timeout 1s -> exit $rc after $(echo "$t1 - $t0" | bc) s"
t0=$(date +%s.%N); coord inbox E001 >/dev/null 2>&1; t1=$(date +%s.%N)
echo "W3: coord inbox E001 -> $(echo "$t1 - $t0" | bc) s"
cd "$P"; t0=$(date +%s.%N); coord status E001 >/dev/null 2>&1; t1=$(date +%s.%N)
echo "Primary (a recipient): coord status E001 -> $(echo "$t1 - $t0" | bc) s"
# Expected (fixed): an acknowledgement whose lane is not a recipient of the message is ignored
# unread (it can never count), and the wait's deadline bounds every read of the store, acks
# included: the wait exits 5 about 1 s after it started, inbox costs what it cost before.
