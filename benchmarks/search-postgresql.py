#!/usr/bin/env python3
"""benchmarks/search-postgresql.sh's helper (search on PostgreSQL). Standard library only.

  search-postgresql.py notes COUNT AVERAGE_BYTES CJK_PERCENT SEED > notes.tsv
      Notes as COPY's text format: date, content, folded content. The notes are made of
      a vocabulary whose folded forms are known (ASCII words lowered; `Straße` folds to
      `strasse`, `café` stays), and of Chinese characters and punctuation, which have no
      case: exactly what TextFolding makes of them (the script checks that through the
      store, rewriting a sample of notes over REST).
  search-postgresql.py measure BASE_URL TOKEN QUERIES SEED PAGES SAMPLE_FILE [LABEL]
      Searches over REST, one at a time: first pages of 50 and keyset pages after them;
      LABEL starts every line (another account's figures).
  search-postgresql.py write BASE_URL TOKEN RATE SEED
      Adds notes over REST (`POST /api/v1/notes`, one connection) at RATE a second,
      until stopped (SIGTERM), then prints how many it added: another user's writes while
      the searches are measured.
"""
import http.client
import json
import os
import random
import sys
import time
import urllib.parse

# The vocabulary, the Chinese characters, the Zipf draw, the queries and the percentiles are
# benchmarks/search.py's (SQLite's run), so both stores are measured on the same words.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from search import CJK, percentile, queries_of, slowest_pages, vocabulary, zipf_index  # noqa: E402

# The folds of the vocabulary's words that are not plain lowercase.
FOLDED = {"straße": "strasse"}


def fold(word):
    """TextFolding.fold of the vocabulary's words and of their capitalized forms."""
    base = word[0].lower() + word[1:]
    if base in FOLDED:
        return FOLDED[base]
    if base.isascii() or base == "café":
        return word.lower()
    raise ValueError(f"no known fold for {word!r}")


def latin_note(rng, words, target):
    shown, folded, size = [], [], 0
    while size < target:
        word = words[zipf_index(rng, len(words))]
        if rng.random() < 0.1:
            word = word.capitalize()
        shown.append(word)
        folded.append(fold(word))
        size += len(word.encode()) + 1
    return " ".join(shown), " ".join(folded)


def cjk_note(rng, target):
    chars, size = [], 0
    while size < target:
        if rng.random() < 0.08:
            chars.append(rng.choice("，。 "))
        else:
            chars.append(CJK[zipf_index(rng, len(CJK))])
        size += 3
    text = "".join(chars).strip() or CJK[0]
    return text, text


def notes(count, average, cjk_percent, seed):
    rng = random.Random(seed)
    words = vocabulary(random.Random(1))
    start = 1_700_000_000  # 2023-11-14: notes spread over about five years after it
    out = sys.stdout
    for n in range(count):
        target = max(8, int(rng.expovariate(1 / average)))
        if rng.random() * 100 < cjk_percent:
            content, folded = cjk_note(rng, target)
        else:
            content, folded = latin_note(rng, words, target)
        when = time.gmtime(start + n * (160_000_000 // max(count, 1)) + rng.randint(0, 3600))
        out.write(f"{time.strftime('%Y-%m-%d %H:%M:%S', when)}\t{content}\t{folded}\n")


def measure(base_url, token, count, seed, pages, sample_file, label=""):
    rng = random.Random(seed)
    url = urllib.parse.urlparse(base_url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    headers = {"Authorization": f"Bearer {token}"}
    words = vocabulary(random.Random(1))
    with open(sample_file, encoding="utf-8") as lines:
        sample = [line.rstrip("\n") for line in lines if line.strip()]

    def get(path):
        began = time.perf_counter()
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        body = response.read()
        elapsed = (time.perf_counter() - began) * 1000
        if response.status != 200:
            raise SystemExit(f"{path}: {response.status} {body[:200]!r}")
        return elapsed, json.loads(body)

    listing = [get("/api/v1/notes?limit=50")[0] for _ in range(min(count, 50))]
    print(f"{label}listing without q, first page of 50: {len(listing)} requests, "
          f"p50 {percentile(listing, 50):7.2f} ms, p99 {percentile(listing, 99):7.2f} ms")
    for kind in ("3+", "1-2"):
        first, later, matched, slowest = [], [], [], []
        for query in queries_of(rng, sample, words, kind, count):
            cursor = ""
            for page in range(pages):
                path = "/api/v1/notes?limit=50&q=" + urllib.parse.quote(query)
                if cursor:
                    path += "&cursor=" + urllib.parse.quote(cursor)
                elapsed, answer = get(path)
                (first if page == 0 else later).append(elapsed)
                slowest.append((elapsed, query, page + 1))
                if page == 0:
                    matched.append(len(answer["notes"]))
                cursor = answer["nextCursor"]
                if not cursor:
                    break
        full = sum(1 for m in matched if m == 50)
        for name, values in (("first page", first), ("next pages", later)):
            if values:
                print(f"{label}{kind:>3} chars, {name:10}: {len(values):4} requests, "
                      f"p50 {percentile(values, 50):7.2f} ms, p99 {percentile(values, 99):7.2f} ms, "
                      f"max {max(values):7.2f} ms")
        print(f"{label}{kind:>3} chars: {full} of {len(matched)} queries filled a first page of 50;"
              f" slowest: {slowest_pages(slowest)}")
    # Queries too short for trigrams that no note holds: before the piece index, the walk
    # read the whole account for them.
    for query in ("zx", "qj"):
        times = [get("/api/v1/notes?limit=50&q=" + query)[0] for _ in range(3)]
        print(f"{label}absent 2-character query {query!r}:"
              f" {', '.join(f'{t:.0f}' for t in times)} ms")


def write(base_url, token, rate, seed):
    """Notes of the benchmark's kind, one every 1/RATE s on a fixed schedule (a slow
    answer is caught up on, not skipped), until SIGTERM."""
    import signal
    stopped = []
    signal.signal(signal.SIGTERM, lambda *_: stopped.append(True))
    rng = random.Random(seed)
    words = vocabulary(random.Random(1))
    url = urllib.parse.urlparse(base_url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    began, added = time.monotonic(), 0
    while not stopped:
        delay = began + added / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
            continue
        shown, _ = cjk_note(rng, 200) if rng.random() < 0.3 else latin_note(rng, words, 200)
        body = json.dumps({"content": shown})
        connection.request("POST", "/api/v1/notes", body, headers)
        response = connection.getresponse()
        response.read()
        if response.status != 201:
            raise SystemExit(f"add: {response.status}")
        added += 1
    print(f"{added} notes added in {time.monotonic() - began:.1f} s")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "notes" and len(sys.argv) == 6:
        notes(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    elif command == "measure" and len(sys.argv) in (8, 9):
        measure(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]),
                sys.argv[7], *sys.argv[8:])
    elif command == "write" and len(sys.argv) == 6:
        write(sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5]))
    else:
        raise SystemExit(__doc__)
