# working-tree-encoding=UTF-16 in force at spawn (committed .gitattributes, clean tree).
# The child overwrites b.ts with the UTF-8 bytes of its blob: git status says modified.
. "$(dirname "$0")/../gate-10/pre.sh"
printf 'hi\n' >b.ts; git commit -qam blob
echo "b.ts ${ATTR:-working-tree-encoding=UTF-16}" >.gitattributes; git add .gitattributes; git commit -qm attr
rm b.ts; git checkout -q b.ts; sleep 1; git update-index --refresh; sleep 1
git status --short; echo "spawn wt: $(od -An -tx1 b.ts)"
spawn
git cat-file blob HEAD:b.ts >b.ts          # the child's change to b.ts
echo a2 >a.ts; git commit -qm e a.ts
echo "git status: $(git status --short)"; echo "wt now: $(od -An -tx1 b.ts)"
gate          # b.ts NOT claimed
