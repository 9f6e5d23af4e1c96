"""Fixtures for the browser suite: a real mynotes-server on a free port over a temporary
database, and headless Chromium driven by chromedriver (both from Debian packages).

A failing test leaves a screenshot of every browser window it used, the page's HTML and
the browser console in .build/browser-failures/ (ignored by git)."""

import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import uuid

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
FAILURES = ROOT / ".build" / "browser-failures"


def products_dir() -> pathlib.Path:
    """Where SwiftPM put mynotes-server: $MYNOTES_PRODUCTS (scripts/test.sh sets it from
    `swift build --show-bin-path`), else .build/debug."""
    return pathlib.Path(os.environ.get("MYNOTES_PRODUCTS", ROOT / ".build" / "debug"))


class Server:
    """`mynotes-server serve --port 0` as a child process; the ready line gives the port."""

    READY = re.compile(r"listening on (http://\S+:(\d+))")

    def __init__(self, directory: pathlib.Path, *options: str):
        self.database = f"sqlite:{directory / 'notes.sqlite'}"
        self.options = options  # more `serve` options, e.g. "--change-retention", "1s"
        self._start("0")

    def _start(self, port):
        executable = products_dir() / "mynotes-server"
        if not executable.exists():
            raise RuntimeError(f"{executable} is missing: run `swift build` first")
        self.process = subprocess.Popen(
            # Every test signs up from 127.0.0.1: the sign-up and sign-in rate limits
            # (tested in RateLimitTests) would refuse the suite after its first few.
            [str(executable), "serve", "--port", port,
             "--database", self.database, "--auth-rate-limits", "unlimited", *self.options],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = self.READY.search(line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"no ready line: {line!r} {self.process.stderr.read()}")
        self.url = match.group(1)

    def restart(self):
        """Stops the server and starts it again on the same port and database, for tests
        that the browser reconnects to its live changes."""
        self.stop()
        self._start(self.url.rsplit(":", 1)[1])

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    # Direct REST calls, for what a test sets up or checks behind the browser's back.
    def call(self, method, path, body=None, token=None, language="en"):
        request = urllib.request.Request(
            self.url + path, method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Accept-Language": language,
                     **({"Authorization": f"Bearer {token}"} if token else {})})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read().decode()
                return response.status, (json.loads(text) if text else None)
        except urllib.error.HTTPError as error:
            text = error.read().decode()
            return error.code, (json.loads(text) if text else None)

    def create_account(self, email, password):
        status, body = self.call("POST", "/api/v1/accounts", {"email": email, "password": password})
        assert status == 201, body
        return body["token"]

    def reset_token(self, email):
        """Revokes every token of the account, the browser's session included, as an
        administrator would with `mynotes-server accounts reset-token`."""
        subprocess.run(
            [str(products_dir() / "mynotes-server"), "accounts", "reset-token", email,
             "--database", self.database],
            check=True, capture_output=True, text=True, timeout=30)

    def notes(self, token, q=None):
        path = "/api/v1/notes?limit=200" + (f"&q={urllib.parse.quote(q)}" if q else "")
        status, body = self.call("GET", path, token=token)
        assert status == 200, body
        return [note["content"] for note in body["notes"]]


@pytest.fixture(scope="session")
def server():
    directory = pathlib.Path(tempfile.mkdtemp(prefix="mynotes-browser-"))
    running = Server(directory)
    yield running
    running.stop()
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def account():
    """A fresh email and password: every test has its own account on the shared server."""
    return f"user-{uuid.uuid4().hex[:12]}@example.com", "correct horse battery"


def new_chrome(width=1280, height=860, language="en-US"):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--disable-gpu", "--disable-extensions", "--no-first-run",
                     "--disable-background-timer-throttling",
                     "--disable-renderer-backgrounding",
                     f"--window-size={width},{height}", f"--lang={language}"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_window_size(width, height)
    return driver


@pytest.fixture
def chrome(request):
    """Makes browsers (`chrome()`, `chrome(width=360)`, `chrome(language="zh-CN")`); all are
    closed after the test, and photographed first if it failed."""
    drivers = []
    request.node.browsers = drivers

    def make(**kwargs):
        driver = new_chrome(**kwargs)
        drivers.append(driver)
        return driver

    yield make
    for driver in drivers:
        driver.quit()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    FAILURES.mkdir(parents=True, exist_ok=True)
    for index, driver in enumerate(getattr(item, "browsers", [])):
        for handle_index, handle in enumerate(driver.window_handles):
            stem = f"{item.name}-{index}-{handle_index}"
            try:
                driver.switch_to.window(handle)
                driver.save_screenshot(str(FAILURES / f"{stem}.png"))
                (FAILURES / f"{stem}.html").write_text(driver.page_source)
                logs = driver.get_log("browser")
                (FAILURES / f"{stem}.console.txt").write_text(
                    "\n".join(f"{entry['level']} {entry['message']}" for entry in logs))
            except Exception as error:  # a dead browser must not hide the real failure
                (FAILURES / f"{stem}.error.txt").write_text(repr(error))
        report.sections.append(("browser", f"screenshots in {FAILURES}"))
