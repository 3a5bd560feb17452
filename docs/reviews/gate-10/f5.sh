. "$(dirname "$0")/pre.sh"
echo .gitattributes >>.git/info/exclude; echo "b.ts text eol=crlf" >.gitattributes; rm b.ts; git checkout -q b.ts
spawn
echo a2 >a.ts; git commit -qam e
rm .gitattributes
gate b.ts
