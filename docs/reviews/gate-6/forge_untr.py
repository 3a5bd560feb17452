# usage: forge_untr.py DIRNAME NAME  -- drop NAME from DIRNAME's untracked list in the index's UNTR extension
import sys, hashlib
dirname, name = sys.argv[1].encode(), sys.argv[2].encode()
d = bytearray(open('.git/index','rb').read())
i = d.find(b'UNTR'); n = int.from_bytes(d[i+4:i+8],'big')
ext = bytes(d[i+8:i+8+n])
old = b'\x01\x00' + dirname + b'\x00' + name + b'\x00'
new = b'\x00\x00' + dirname + b'\x00'
assert ext.count(old) == 1, ext
ext = ext.replace(old, new)
body = bytes(d[:i]) + b'UNTR' + len(ext).to_bytes(4,'big') + ext + bytes(d[i+8+n:-20])
open('.git/index','wb').write(body + hashlib.sha1(body).digest())
