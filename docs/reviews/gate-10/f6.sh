. "$(dirname "$0")/pre.sh"
spawn
echo a2 >a.ts; echo "* text=auto eol=lf" >.gitattributes; git add .; git commit -qm "normalize line ends"
gate .gitattributes
