#!/usr/bin/env python3
"""The soak's driver (benchmarks/soak.sh starts the server and runs this).

Workers, each with an account of its own and one keep-alive connection, drive a fixed-seed
mix of every endpoint: the legacy query/add/modify/remove (GET and POST, JSON and XML),
REST list/search/create/update/delete, and now and then a sign-in followed by a sign-out.
Every answer is checked (legacy ResultCode 0 with the right ID; REST status, ETag and
body); anything else is an error. Every INTERVAL seconds it prints the requests, the errors,
the server's RSS and open descriptors, and the interval's latency percentiles. At the end:
the percentiles per operation, and the verdict: exit status 1 if any request failed or if,
after the warm-up, RSS or the descriptor count moved by more than 10% of its smallest value.

Usage: soak.py --port P --pid PID --seconds S [--interval 30] [--workers 8] [--seed 10]
"""

import argparse
import http.client
import json
import os
import random
import sys
import threading
import time
import urllib.parse

LEGACY = "/mynotes/webservice.php"
PASSWORD = "soak password 1"

# (operation, weight): reads dominate; adds and removes are as frequent, and each account
# is kept between FEWEST and MOST notes (an add past MOST becomes a remove and the other
# way round), so the database and every answer keep their size and only a leak could grow;
# sign-in is rare: it costs a 600,000-round hash.
MIX = [
    ("legacy query", 22),
    ("legacy add", 8),
    ("legacy modify", 8),
    ("legacy remove", 8),
    ("rest list", 18),
    ("rest search", 10),
    ("rest create", 8),
    ("rest update", 8),
    ("rest delete", 8),
    ("sign-in", 0.03),
]
FEWEST, MOST = 10, 40
OPPOSITE = {"legacy add": "legacy remove", "rest create": "rest delete"}


class Failure(Exception):
    pass


class Worker:
    def __init__(self, index, port, seed, record):
        self.index = index
        self.port = port
        self.random = random.Random(seed * 1000 + index)
        self.record = record
        self.email = f"soak{index}-{seed}@example.com"
        self.notes = {}  # id -> etag (None when last written through the legacy protocol)
        self.connection = None
        self.counter = 0

    # -- HTTP ------------------------------------------------------------------------

    def request(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        headers["Host"] = f"127.0.0.1:{self.port}"
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.connection.close()
                    self.connection = None
                return response.status, response, data
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # A kept-alive connection the server closed (idle timeout): one retry on a
                # new one. A second failure is an error.
                self.connection.close()
                self.connection = None
                if attempt == 2:
                    raise

    def legacy(self, method, fields):
        fields = dict(fields, email=self.email, token=self.token)
        encoded = urllib.parse.urlencode(fields)
        if method == "GET":
            status, _, data = self.request("GET", f"{LEGACY}?{encoded}")
        else:
            status, _, data = self.request(
                "POST", LEGACY, encoded,
                {"Content-Type": "application/x-www-form-urlencoded"})
        if status != 200:
            raise Failure(f"legacy {fields['action']}: HTTP {status}")
        if fields.get("type") == "XML":
            text = data.decode()
            if "<ResultCode>0</ResultCode>" not in text:
                raise Failure(f"legacy {fields['action']} XML: {text[:200]}")
            return None
        answer = json.loads(data)
        if answer.get("ResultCode") != 0:
            raise Failure(f"legacy {fields['action']}: {answer}")
        return answer

    def rest(self, method, path, body=None, expect=(200,), headers=None, token=None):
        headers = dict(headers or {})
        headers["Authorization"] = f"Bearer {token or self.token}"
        payload = None
        if body is not None:
            payload = json.dumps(body)
            headers["Content-Type"] = "application/json"
        status, response, data = self.request(method, path, payload, headers)
        if status not in expect:
            raise Failure(f"{method} {path}: HTTP {status} {data[:200]!r}")
        return response, (json.loads(data) if data else None)

    # -- Set-up ----------------------------------------------------------------------

    def sign_up(self):
        status, _, data = self.request(
            "POST", "/api/v1/accounts", json.dumps({"email": self.email, "password": PASSWORD}),
            {"Content-Type": "application/json"})
        if status != 201:
            raise Failure(f"sign-up: HTTP {status} {data[:200]!r}")
        self.token = json.loads(data)["token"]
        for _ in range(20):
            self.op_rest_create()

    # -- Operations --------------------------------------------------------------------

    def content(self):
        self.counter += 1
        words = ["milk", "eggs", "备忘", "meeting", "call", "Straße", "tea", "note"]
        picked = " ".join(self.random.choice(words) for _ in range(self.random.randint(1, 30)))
        return f"{picked} #{self.index}-{self.counter}"

    def date(self):
        return f"2026-{self.random.randint(1, 12):02d}-{self.random.randint(1, 28):02d}"

    def some_note(self):
        if not self.notes:
            self.op_rest_create()
        return self.random.choice(sorted(self.notes))

    def op_legacy_query(self):
        kind = self.random.choice(["JSON", "XML"])
        method = self.random.choice(["GET", "POST"])
        answer = self.legacy(method, {"action": "query", "type": kind})
        if answer is not None:
            ids = {int(note["ID"]) for note in answer.get("Record", [])}
            if ids != set(self.notes):
                raise Failure(f"legacy query: {len(ids)} notes, expected {len(self.notes)}")

    def op_legacy_add(self):
        answer = self.legacy(
            self.random.choice(["GET", "POST"]),
            {"action": "add", "date": self.date(), "content": self.content()})
        self.notes[int(answer["ID"])] = None

    def op_legacy_modify(self):
        note = self.some_note()
        self.legacy(
            "POST",
            {"action": "modify", "id": note, "date": self.date(), "content": self.content()})
        self.notes[note] = None

    def op_legacy_remove(self):
        note = self.some_note()
        self.legacy(self.random.choice(["GET", "POST"]), {"action": "remove", "id": note})
        del self.notes[note]

    def op_rest_list(self):
        _, page = self.rest("GET", f"/api/v1/notes?limit={self.random.choice([10, 50, 200])}")
        if not isinstance(page.get("notes"), list):
            raise Failure(f"list: {page}")

    def op_rest_search(self):
        word = self.random.choice(["milk", "备忘", "STRASSE", "tea", "nothing-matches"])
        self.rest("GET", "/api/v1/notes?limit=20&q=" + urllib.parse.quote(word))

    def op_rest_create(self):
        response, note = self.rest(
            "POST", "/api/v1/notes", {"content": self.content(), "date": self.date()},
            expect=(201,))
        self.notes[note["id"]] = response.getheader("ETag")

    def op_rest_update(self):
        note = self.some_note()
        etag = self.notes[note]
        headers = {"If-Match": etag} if etag else {}
        response, _ = self.rest(
            "PATCH", f"/api/v1/notes/{note}", {"content": self.content()}, headers=headers)
        self.notes[note] = response.getheader("ETag")

    def op_rest_delete(self):
        note = self.some_note()
        self.rest("DELETE", f"/api/v1/notes/{note}", expect=(204,))
        del self.notes[note]

    def op_sign_in(self):
        status, _, data = self.request(
            "POST", "/api/v1/sessions", json.dumps({"email": self.email, "password": PASSWORD}),
            {"Content-Type": "application/json"})
        if status != 201:
            raise Failure(f"sign-in: HTTP {status} {data[:200]!r}")
        token = json.loads(data)["token"]
        # Signing out again keeps the tokens from piling up over the soak.
        self.rest("DELETE", "/api/v1/sessions/current", expect=(204,), token=token)

    # -- Loop --------------------------------------------------------------------------

    def run(self, deadline):
        names = [name for name, _ in MIX]
        weights = [weight for _, weight in MIX]
        while time.monotonic() < deadline:
            name = self.random.choices(names, weights)[0]
            if name in OPPOSITE and len(self.notes) >= MOST:
                name = OPPOSITE[name]
            elif name in OPPOSITE.values() and len(self.notes) <= FEWEST:
                name = next(add for add, remove in OPPOSITE.items() if remove == name)
            start = time.perf_counter()
            error = None
            try:
                getattr(self, "op_" + name.replace(" ", "_").replace("-", "_"))()
            except Exception as failure:  # noqa: BLE001 - every failure is counted
                error = f"{name}: {failure}"
                if self.connection is not None:
                    self.connection.close()
                    self.connection = None
            self.record(name, time.perf_counter() - start, error)


class Recorder:
    def __init__(self):
        self.lock = threading.Lock()
        self.interval = []
        self.by_operation = {}
        self.errors = []
        self.requests = 0

    def __call__(self, name, seconds, error):
        with self.lock:
            self.requests += 1
            self.interval.append(seconds)
            self.by_operation.setdefault(name, []).append(seconds)
            if error:
                self.errors.append(error)

    def take_interval(self):
        with self.lock:
            taken, self.interval = self.interval, []
            return taken, self.requests, len(self.errors)


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def process_sample(pid):
    with open(f"/proc/{pid}/status") as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--interval", type=float, default=30)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--warmup-samples", type=int, default=2)
    options = parser.parse_args()

    recorder = Recorder()
    workers = [Worker(index, options.port, options.seed, recorder)
               for index in range(options.workers)]
    for worker in workers:
        worker.sign_up()
    start = time.monotonic()
    deadline = start + options.seconds
    threads = [threading.Thread(target=worker.run, args=(deadline,), daemon=True)
               for worker in workers]
    for thread in threads:
        thread.start()

    samples = []
    print(f"{'time':>6} {'requests':>9} {'req/s':>7} {'errors':>6} {'RSS MiB':>8} {'fds':>5} "
          f"{'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}", flush=True)
    previous = 0
    next_sample = start + options.interval
    while True:
        now = time.monotonic()
        if now >= deadline:
            break
        time.sleep(min(next_sample, deadline) - now)
        if time.monotonic() < next_sample - 0.01:
            break
        next_sample += options.interval
        taken, total, errors = recorder.take_interval()
        rss, fds = process_sample(options.pid)
        samples.append((rss, fds))
        elapsed = time.monotonic() - start
        print(f"{elapsed:6.0f} {total:9d} {(total - previous) / options.interval:7.0f} "
              f"{errors:6d} {rss / 1024:8.1f} {fds:5d} {percentile(taken, .5) * 1000:7.2f} "
              f"{percentile(taken, .99) * 1000:7.2f} {max(taken, default=0) * 1000:7.2f}",
              flush=True)
        previous = total
    for thread in threads:
        thread.join()

    print("\nlatency per operation (ms):")
    print(f"  {'operation':<14} {'count':>8} {'p50':>7} {'p90':>7} {'p99':>7} {'p99.9':>7} {'max':>7}")
    everything = []
    for name, _ in MIX:
        values = recorder.by_operation.get(name, [])
        everything += values
        print(f"  {name:<14} {len(values):8d} " + " ".join(
            f"{percentile(values, q) * 1000:7.2f}" for q in (.5, .9, .99, .999))
            + f" {max(values, default=0) * 1000:7.2f}")
    print(f"  {'all':<14} {len(everything):8d} " + " ".join(
        f"{percentile(everything, q) * 1000:7.2f}" for q in (.5, .9, .99, .999))
        + f" {max(everything, default=0) * 1000:7.2f}")
    print(f"\n{recorder.requests} requests in {options.seconds:.0f} s "
          f"({recorder.requests / options.seconds:.0f}/s), {len(recorder.errors)} errors")
    failed = False
    for error in recorder.errors[:10]:
        print(f"  error: {error}")
    if recorder.errors:
        failed = True
    steady = samples[options.warmup_samples:]
    if len(steady) < 2:
        print(f"too short to judge growth: {len(samples)} samples, "
              f"{options.warmup_samples} of them warm-up")
    else:
        for label, values in (("RSS", [s[0] for s in steady]), ("open fds", [s[1] for s in steady])):
            spread = (max(values) - min(values)) / min(values)
            verdict = "flat" if spread <= 0.10 else "GROWING"
            print(f"{label} after warm-up: {min(values)} – {max(values)} "
                  f"({spread * 100:.1f}% of the smallest): {verdict}")
            failed = failed or spread > 0.10
    print("SOAK FAIL" if failed else "SOAK PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
