# A working-tree-encoding dropped (committed) before spawn; the child never touches b.ts
. "$(dirname "$0")/../gate-10/pre.sh"
ENC=${ENC:-UTF-32}
printf 'h\303\251llo\n' >b.ts; git commit -qam utf8
echo "b.ts working-tree-encoding=$ENC" >.gitattributes; git add .gitattributes; git commit -qm enc
rm b.ts; git checkout -q b.ts; sleep 1; git update-index --refresh; sleep 1; od -An -tx1 b.ts | head -1
git rm -q .gitattributes; git commit -qm drop
git status --short
spawn
echo a2 >a.ts; git commit -qam e      # the child's real work
gate b.ts
