#!/usr/bin/env python3
"""benchmarks/search.sh's helper: fills a database with notes straight through SQLite,
and measures searches over the REST API one at a time. Standard library only.

  search.py fill DATABASE EMAIL COUNT AVERAGE_BYTES CJK_PERCENT SEED
  search.py measure BASE_URL TOKEN QUERIES SEED PAGES LABEL
  search.py probe BASE_URL TOKEN COUNT
"""
import http.client
import json
import random
import sqlite3
import sys
import time
import urllib.parse

# Pseudo-words with a Zipf-like use, so that some words are in most notes and most words in
# few, as in real text; plus CJK characters, common ones far more often than rare ones.
def vocabulary(rng):
    syllables = ["ka", "to", "mi", "re", "su", "na", "lo", "pe", "di", "ju", "bo", "xi", "ar",
                 "en", "ou", "st", "ch", "qu", "ze", "ly"]
    words = ["the", "and", "milk", "meeting", "notes", "budget", "Straße", "café", "report"]
    while len(words) < 20000:
        words.append("".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))))
    return words


CJK = [chr(c) for c in range(0x4E00, 0x4E00 + 6000)]


def zipf_index(rng, n):
    # P(i) ~ 1/(i+1): draw by inverting the harmonic CDF approximately.
    return min(n - 1, int(n ** rng.random()) - 1)


def latin_note(rng, words, target):
    parts = []
    size = 0
    while size < target:
        word = words[zipf_index(rng, len(words))]
        if rng.random() < 0.1:
            word = word.capitalize()
        parts.append(word)
        size += len(word.encode()) + 1
    return " ".join(parts)


def cjk_note(rng, target):
    chars = []
    size = 0
    while size < target:
        if rng.random() < 0.08:
            chars.append(rng.choice("，。 "))
            size += 3
        else:
            chars.append(CJK[zipf_index(rng, len(CJK))])
            size += 3
    return "".join(chars)


def fill(database, email, count, average, cjk_percent, seed):
    rng = random.Random(seed)
    words = vocabulary(random.Random(1))
    db = sqlite3.connect(database)
    db.execute("PRAGMA journal_mode = WAL")
    (account,) = db.execute("SELECT id FROM accounts WHERE email = ?", (email,)).fetchone()
    start = 1_700_000_000  # 2023-11-14: notes spread over about five years after it
    def rows():
        for n in range(count):
            # Short notes vary (exponentially, around the average); long ones are all alike.
            target = max(8, int(rng.expovariate(1 / average))) if average < 1000 else average
            target = min(target, 65000)
            if rng.random() * 100 < cjk_percent:
                content = cjk_note(rng, target)
            else:
                content = latin_note(rng, words, target)
            content = content.encode()[:65536].decode(errors="ignore").strip() or "x"
            when = time.gmtime(start + n * (160_000_000 // max(count, 1)) + rng.randint(0, 3600))
            date = time.strftime("%Y-%m-%d %H:%M:%S", when)
            yield (account, date, date, content)
    db.executemany(
        "INSERT INTO notes (account_id, date, sort_key, content, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, 0, 0)", rows())
    db.commit()
    (total,) = db.execute(
        "SELECT sum(length(CAST(content AS BLOB))) FROM notes WHERE account_id = ?",
        (account,)).fetchone()
    print(f"{count} notes, {total / 1e6:.1f} MB of content, {total / count:.0f} bytes each")


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def slowest_pages(pages, count=6):
    """The slowest of (milliseconds, query, page number) by name: the queries come from a
    random sample of the notes, and a sample's phrases of common syllables decide a run's
    p99 (2026-12-07)."""
    return ", ".join(f"{t:.0f} ms {q!r} (page {p})" for t, q, p in sorted(pages, reverse=True)[:count])


def queries_of(rng, db_notes, words, kind, count):
    """3+: words of the vocabulary (common and rare), CJK runs of 3-4 characters and
    pieces of random notes, some absent; 1-2: single Latin letters, one or two CJK
    characters, two letters."""
    found = []
    for _ in range(count):
        choice = rng.random()
        if kind == "3+":
            if choice < 0.35:
                word = words[zipf_index(rng, len(words))]
                found.append(word if len(word) >= 3 else word + " ")
            elif choice < 0.65:
                note = rng.choice(db_notes)
                length = rng.randint(3, 8)
                at = rng.randint(0, max(0, len(note) - length))
                piece = note[at:at + length]
                found.append(piece if len(piece) >= 3 else "abc")
            elif choice < 0.9:
                found.append("".join(CJK[zipf_index(rng, len(CJK))] for _ in range(rng.randint(3, 4))))
            else:
                found.append("zq" + str(rng.randint(0, 10**6)))
        else:
            if choice < 0.3:
                found.append(rng.choice("abcdefghijklmnopqrstuvwxyz"))
            elif choice < 0.6:
                found.append(CJK[zipf_index(rng, len(CJK))])
            elif choice < 0.85:
                found.append(CJK[zipf_index(rng, len(CJK))] + CJK[zipf_index(rng, len(CJK))])
            else:
                found.append(rng.choice("abcdefghijklmnopqrstuvwxyz") + rng.choice("aeiou"))
    return found


def measure(base_url, token, count, seed, pages, label, database=None, email=None):
    rng = random.Random(seed)
    url = urllib.parse.urlparse(base_url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    headers = {"Authorization": f"Bearer {token}"}
    words = vocabulary(random.Random(1))
    sample = []
    if database:
        db = sqlite3.connect(database)
        sample = [row[0][:400] for row in db.execute(
            "SELECT content FROM notes WHERE account_id = (SELECT id FROM accounts WHERE email = ?) "
            "ORDER BY random() LIMIT 500", (email,))]
    listing = []
    for _ in range(min(count, 20)):
        began = time.perf_counter()
        connection.request("GET", "/api/v1/notes?limit=50", headers=headers)
        connection.getresponse().read()
        listing.append((time.perf_counter() - began) * 1000)
    print(f"{label} no search, first page of 50 (for comparison): {len(listing)} requests, "
          f"p50 {percentile(listing, 50):7.2f} ms, p99 {percentile(listing, 99):7.2f} ms")
    for kind in ("3+", "1-2"):
        first, later, matched, slowest = [], [], [], []
        for query in queries_of(rng, sample or ["abcdef"], words, kind, count):
            cursor = ""
            for page in range(pages):
                path = "/api/v1/notes?limit=50&q=" + urllib.parse.quote(query)
                if cursor:
                    path += "&cursor=" + urllib.parse.quote(cursor)
                began = time.perf_counter()
                connection.request("GET", path, headers=headers)
                response = connection.getresponse()
                body = response.read()
                elapsed = (time.perf_counter() - began) * 1000
                if response.status != 200:
                    raise SystemExit(f"{path}: {response.status} {body[:200]!r}")
                answer = json.loads(body)
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
                print(f"{label} {kind:>3} chars, {name:10}: {len(values):4} requests, "
                      f"p50 {percentile(values, 50):7.2f} ms, p99 {percentile(values, 99):7.2f} ms, "
                      f"max {max(values):7.2f} ms")
        print(f"{label} {kind:>3} chars: {full} of {len(matched)} queries filled a first page of 50;"
              f" slowest: {slowest_pages(slowest)}")


def probe(base_url, token, count):
    """Searches for an absent word right after a burst of adds, while the notes it wrote
    still wait for the index (searches test them one by one): p50 and max."""
    url = urllib.parse.urlparse(base_url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    headers = {"Authorization": f"Bearer {token}"}
    times = []
    for n in range(count):
        began = time.perf_counter()
        connection.request("GET", f"/api/v1/notes?limit=50&q=zqabsent{n}", headers=headers)
        response = connection.getresponse()
        response.read()
        times.append((time.perf_counter() - began) * 1000)
        if response.status != 200:
            raise SystemExit(f"probe: {response.status}")
    print(f"p50 {percentile(times, 50):.1f} ms, max {max(times):.1f} ms")


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "fill":
        fill(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]),
             int(sys.argv[7]))
    elif command == "measure":
        measure(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]),
                sys.argv[7], *(sys.argv[8:10]))
    elif command == "probe":
        probe(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        raise SystemExit(__doc__)
