. "$(dirname "$0")/pre.sh"
echo "*.ts text eol=crlf" >.gitattributes; git add .; git commit -qm attr; rm b.ts; git checkout -q b.ts
sleep 1; git update-index --refresh; sleep 1   # b.ts stat-clean, CRLF on disk
git rm -q .gitattributes; git commit -qm "upstream drops eol=crlf"   # e.g. a pull; b.ts untouched, status clean
spawn
echo a2 >a.ts; git commit -qam e
gate b.ts
