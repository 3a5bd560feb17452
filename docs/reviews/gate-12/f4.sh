# ident + text=auto under core.eol=crlf, blob that git's heuristic takes for binary (control bytes, no NUL/CR)
. "$(dirname "$0")/../gate-10/pre.sh"
git config core.eol crlf
printf '$Id$\n\001\002\003\004\005\006\021\022\023\024\n' >b.ts; printf 'b.ts ident text=auto\n' >.gitattributes; git add .; git commit -qm bin
rm b.ts; git checkout -q b.ts; sleep 1; git update-index --refresh; sleep 1; od -An -c b.ts | tail -2
spawn
sed -i 's/$/\r/' b.ts; od -An -c b.ts | tail -2      # the child rewrites line ends
echo a2 >a.ts; git commit -qm e a.ts
echo "git status: $(git status --short)"
gate
