. "$(dirname "$0")/../gate-10/pre.sh"
printf '* -crlf\nb.ts ident text eol=crlf\n' >.gitattributes; printf '$Id$\nb1\n' >b.ts; git add .; git commit -qm a; rm b.ts; git checkout -q b.ts
spawn
echo a2 >a.ts; git commit -qm e a.ts
gate b.ts
