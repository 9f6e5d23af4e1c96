#!/usr/bin/env python3
"""POSTs bodies over the server's limit the way Python's urllib does (the whole body is
sent before the answer is read) and prints one line per outcome count, e.g. `413 20`.
A `reset` (or other error) line means the client never saw the server's answer.

Usage: scripts/post-oversized-bodies.py URL [COUNT] [BYTES]
"""
import collections
import sys
import urllib.error
import urllib.request

url = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
size = int(sys.argv[3]) if len(sys.argv) > 3 else 2_000_000
body = b"content=" + b"a" * (size - len("content="))

outcomes = collections.Counter()
for _ in range(count):
    request = urllib.request.Request(
        url, data=body, method="POST",
        headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            outcomes[str(response.status)] += 1
    except urllib.error.HTTPError as error:
        error.read()
        outcomes[str(error.code)] += 1
    except (ConnectionError, urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        outcomes["reset" if isinstance(reason, ConnectionResetError) else type(reason).__name__] += 1
for outcome, times in sorted(outcomes.items()):
    print(outcome, times)
