#!/usr/bin/env bash
# Finding 10: in a repository with `* text=auto` in .gitattributes (very common), the
# parent's uncommitted CRLF files are not carried exactly, and nothing notices. The seed
# records blobs as `git add` cleans them (CRLF -> LF by the attribute; PLAIN_CONFIG pins
# core.autocrlf but not attributes), the child checks out LF, and the spawn's status
# check and verify both pass because git status and the seed compare cleaned content.
# docs/worktree.md says the status check "refuses it rather than hand over a different
# tree"; it does not. A land then rewrites the line ends of every line of the parent's
# file, not just the child's line.
. "$(dirname "$0")/common.sh"
setup
printf '* text=auto\n' > "$P/.gitattributes"; git -C "$P" add .gitattributes
git -C "$P" commit -q -m attrs
printf 'new file\r\nfrom a windows tool\r\n' > "$P/win.txt"       # untracked
spawn c1 || exit 1
C=$P/wt/c1
echo "parent win.txt:"; od -c "$P/win.txt" | head -2
echo "child  win.txt:"; od -c "$C/win.txt" | head -2
(cd "$C" && verify < "$WORK/c1.md"); echo "verify exit: $?"
# --- the child appends one line; the parent lands it ---
printf 'one more line\n' >> "$C/win.txt"
SEED=$(sed -n "s/^seed: //p" "$WORK/c1.md")   # the parent's own record: the block it sent
(cd "$P" && result win.txt | gate --worktree "$C" --seed "$SEED" --land >/dev/null); echo "gate exit: $?"
echo "parent win.txt after the land (its two CRLF lines, untouched by the child, are LF now):"
od -c "$P/win.txt" | head -3
# A fixed tether carries bytes: either the capture pins an attribute source that unsets
# text/eol/filter/ident/working-tree-encoding (so the seed holds the raw bytes, and the
# child's checkout writes them back), or the spawn compares the child's files with the
# parent's byte for byte and refuses (exit 3) as docs/worktree.md promises. Expected:
# child win.txt has \r\n, or spawn exit 3.
