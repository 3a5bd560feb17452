. "$(dirname "$0")/../gate-10/pre.sh"
printf '$Id$\r\nb1\n' >b.ts; git add .; git commit -qm mixed
printf 'b.ts ident text=auto eol=crlf\n' >.gitattributes; git add .gitattributes; git commit -qm id; rm b.ts; git checkout -q b.ts
spawn
echo a2 >a.ts; git commit -qm e a.ts
sed -i 's/b1$/b1\r/' b.ts
gate
