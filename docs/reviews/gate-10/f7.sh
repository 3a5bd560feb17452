. "$(dirname "$0")/pre.sh"
echo "b.ts ident" >.gitattributes; printf '$Id$\nb1\n' >b.ts; git add .; git commit -qm id; rm b.ts; git checkout -q b.ts
spawn
echo a2 >a.ts; git commit -qm e a.ts
sed -i 's/$/\r/' b.ts; git status --porcelain
gate
