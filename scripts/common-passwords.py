#!/usr/bin/env python3
# Regenerates Sources/LatchkeyServer/Passwords/CommonPasswords.swift from zxcvbn 4.5.0 on PyPI (MIT):
#   cd "$(mktemp -d)" && python3 -m pip download --no-deps --no-binary :all: zxcvbn==4.5.0 && tar xzf zxcvbn-4.5.0.tar.gz
#   python3 /path/to/scripts/common-passwords.py /path/to/Sources/LatchkeyServer/Passwords/CommonPasswords.swift
import sys
sys.path.insert(0,'zxcvbn-4.5.0')
from zxcvbn.frequency_lists import FREQUENCY_LISTS
words=FREQUENCY_LISTS['passwords']
if isinstance(words,str): words=words.split(',')
seen=set(); out=[]
for w in words:
    w=w.strip().lower()
    if len(w)>=8 and w not in seen and all(c not in '\\"' for c in w):
        seen.add(w); out.append(w)
    if len(out)>=5000: break
print(len(words), len(out), out[:5], out[-3:])
body="\n".join(out)
swift=f'''// Generated from the "passwords" frequency list of zxcvbn 4.5.0 (PyPI: https://pypi.org/project/zxcvbn/4.5.0/,
// file zxcvbn/frequency_lists.py; MIT licence; ranked by frequency in leaked password corpora).
// Kept: the {len(out)} most frequent entries of at least 8 characters (shorter ones fail the length rule anyway),
// lower-cased, in rank order. Regenerate with scripts/common-passwords.py.
// A Swift constant, not a resource, so the binary works wherever it is copied.

enum CommonPasswords {{
    /// One password per line, lower-case.
    static let list = """
{body}
"""
}}
'''
open(sys.argv[1],'w').write(swift)
