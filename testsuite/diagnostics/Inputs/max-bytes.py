#!/usr/bin/env python3
"""max-bytes.py FILE LIMIT: fails, saying so, if FILE is larger than LIMIT bytes."""
import os
import sys

size = os.path.getsize(sys.argv[1])
limit = int(sys.argv[2])
if size > limit:
    sys.exit("%s: %d bytes, more than the limit of %d" % (sys.argv[1], size, limit))
