. "$(dirname "$0")/../gate-10/pre.sh"
printf 'b.ts ident eol=crlf\n' >.gitattributes; printf '$Id$\nb1\n' >b.ts; git add .; git commit -qm id; rm b.ts; git checkout -q b.ts
sleep 1; git update-index --refresh; sleep 1
printf 'b.ts ident\n' >.gitattributes; git commit -qam 'upstream drops eol=crlf'
spawn
echo a2 >a.ts; git commit -qm e a.ts
gate b.ts
