. "$(dirname "$0")/pre.sh"
echo "b.ts text eol=crlf" >.gitattributes; git add .; git commit -qm attr; rm b.ts; git checkout -q b.ts
spawn
echo a2 >a.ts; git commit -qm e a.ts
rm .gitattributes          # worktree only; the index still holds it
gate b.ts .gitattributes
