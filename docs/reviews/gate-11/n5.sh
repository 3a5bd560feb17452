. "$(dirname "$0")/../gate-10/pre.sh"
git config core.autocrlf input
spawn
echo a2 >a.ts; echo b2 >b.ts; echo "* text=auto eol=lf" >.gitattributes; git add .; git commit -qm n
gate b.ts .gitattributes
