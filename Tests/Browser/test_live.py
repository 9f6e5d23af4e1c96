"""The app is live. Two browsers signed in side by side (two sessions of one
account), the real `mynotes` CLI over the legacy protocol, and REST: a note added, edited
or deleted by any of them appears, changes or disappears in the other browsers without a
reload; a note being edited that changes elsewhere offers both versions before any save;
and after a server restart the app reconnects and catches up."""

import contextlib
import os
import subprocess

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import Server, products_dir
from mynotes_page import MyNotesPage
from test_conflict import block_live_changes


class Cli:
    """The real `mynotes` command, on the legacy protocol (webservice.php, its default),
    as an old app would write; HOME is a folder of its own, so no saved login applies."""

    def __init__(self, server, email, token, home):
        self.server, self.email, self.token, self.home = server, email, token, home

    def __call__(self, *arguments):
        result = subprocess.run(
            [str(products_dir() / "mynotes"), *arguments, "--server", self.server.url,
             "--email", self.email, "--token", self.token],
            capture_output=True, text=True, timeout=30,
            env={**os.environ, "HOME": str(self.home), "MYNOTES_API": "legacy"})
        assert result.returncode == 0, (arguments, result.stdout, result.stderr)
        return result.stdout

    def note_id(self, server_token, content):
        """The id of the note with `content` (over REST: the legacy list prints dates)."""
        status, body = self.server.call("GET", "/api/v1/notes?limit=200", token=server_token)
        assert status == 200, body
        return next(note["id"] for note in body["notes"] if note["content"] == content)


def signed_in(driver, server, email, password):
    page = MyNotesPage(driver, server.url)
    page.open()
    record_status(page)
    page.sign_in(email, password)
    page.wait_signed_in()
    wait_live(page)
    return page


def record_status(page):
    """Keeps every text the status line shows, in order: it says a thing for a few seconds
    only, and a test busy with the list meanwhile (a loaded machine) would miss it."""
    page.driver.execute_script("""
        window.statusSaid = [];
        const status = document.getElementById('status');
        new MutationObserver(() => {
          const text = status.textContent.trim();
          if (text) window.statusSaid.push(text);
        }).observe(status, { childList: true, characterData: true, subtree: true });
    """)


def wait_live(page):
    page.wait(lambda: page.find("#live-status").get_attribute("data-state") == "open",
              "the change stream never opened")


def wait_status(page, text):
    """Waits until the status line has said `text` since it last said what this waited
    for (`record_status`), and forgets what it said up to then."""
    said = lambda: page.driver.execute_script("""
        const at = window.statusSaid.indexOf(arguments[0]);
        if (at < 0) return false;
        window.statusSaid.splice(0, at + 1);
        return true;
    """, text)
    try:
        page.wait(said)
    except TimeoutException:
        history = page.driver.execute_script("return window.statusSaid")
        raise AssertionError(f"the status line never said {text!r}; it said {history!r}")


def test_two_browsers_the_cli_and_rest_see_each_others_changes(chrome, server, account, tmp_path):
    email, password = account
    token = server.create_account(email, password)
    ann = signed_in(chrome(), server, email, password)
    bo = signed_in(chrome(), server, email, password)
    cli = Cli(server, email, token, tmp_path)

    # Added in one browser: the other lists it, and says so. Each change below is said
    # before the next is made: changes that come within 300 ms of each other are said as
    # one ("3 notes changed elsewhere.").
    ann.add_note("Buy milk")
    bo.wait_titles(["Buy milk"])
    wait_status(bo, "Added elsewhere: “Buy milk”.")
    # Ann closes it: what follows is about the list (test_a_note_being_edited… is about
    # the open note).
    ann.find("#note-content").send_keys(Keys.ESCAPE)
    ann.wait(lambda: not ann.visible("#editor"))

    # Added by the CLI over the legacy protocol, CJK and markup included: both list it,
    # as text.
    markup = '<img src=x onerror="document.title=1">买牛奶'
    cli("add", markup, "--date", "2026-12-24 10:00:00")
    for page in (ann, bo):
        page.wait_titles([markup, "Buy milk"])
        wait_status(page, f"Added elsewhere: “{markup}”.")
        assert not page.driver.find_elements(By.CSS_SELECTOR, "#note-list img")
        assert page.driver.title == "MyNotes"

    # Edited by the CLI: the row changes in place.
    cli("edit", str(cli.note_id(token, markup)), "Buy oat milk, 买燕麦奶")
    for page in (ann, bo):
        page.wait_titles(["Buy oat milk, 买燕麦奶", "Buy milk"])
        wait_status(page, "Changed elsewhere: “Buy oat milk, 买燕麦奶”.")

    # Edited over REST (another device), its date moving it down the list.
    milk = cli.note_id(token, "Buy milk")
    status, _ = server.call("PUT", f"/api/v1/notes/{milk}",
                            {"content": "Buy milk and eggs", "date": "2026-12-25"}, token)
    assert status == 200
    for page in (ann, bo):
        page.wait_titles(["Buy milk and eggs", "Buy oat milk, 买燕麦奶"])
        wait_status(page, "Changed elsewhere: “Buy milk and eggs”.")

    # Deleted in one browser: gone from the other.
    bo.open_note("Buy milk and eggs")
    bo.find("#delete").click()
    bo.confirm_dialog(accept=True)
    ann.wait_titles(["Buy oat milk, 买燕麦奶"])
    wait_status(ann, "Deleted elsewhere: “Buy milk and eggs”.")

    # Removed by the CLI: gone from both, said, and the lists say how to start again.
    cli("rm", str(cli.note_id(token, "Buy oat milk, 买燕麦奶")))
    for page in (ann, bo):
        page.wait_titles([])
        wait_status(page, "Deleted elsewhere: “Buy oat milk, 买燕麦奶”.")
        page.wait(lambda p=page: p.list_message()
                  == "No notes yet. Press N or choose “New note” to write one.")
    assert server.notes(token) == []


def test_a_note_being_edited_that_changes_elsewhere(chrome, server, account, tmp_path):
    email, password = account
    token = server.create_account(email, password)
    cli = Cli(server, email, token, tmp_path)
    cli("add", "Agenda: budget")
    page = signed_in(chrome(), server, email, password)
    page.wait_titles(["Agenda: budget"])
    agenda = cli.note_id(token, "Agenda: budget")

    # Open and untouched: the editor shows the new version, and says so.
    page.open_note("Agenda: budget")
    cli("edit", str(agenda), "Agenda: budget, hiring")
    page.wait(lambda: page.find("#note-content").get_attribute("value")
              == "Agenda: budget, hiring", "the editor never showed the new version")
    wait_status(page, "This note was changed elsewhere; it now shows the latest version.")
    page.wait_titles(["Agenda: budget, hiring"])

    # With unsaved edits: both versions, before the user saves; nothing is written.
    page.replace_content("Agenda: budget, hiring, offsite")
    cli("edit", str(agenda), "Agenda: budget, hiring, party")
    page.wait_visible("#conflict")
    assert page.text("#conflict-title") == "This note was changed elsewhere while you were editing it"
    assert page.text("#theirs-content") == "Agenda: budget, hiring, party"
    assert page.text("#mine-content") == "Agenda: budget, hiring, offsite"
    assert server.notes(token) == ["Agenda: budget, hiring, party"]
    # Keeping mine replaces exactly the version shown.
    page.find("#keep-mine").click()
    page.wait(lambda: page.visible("#editor") and not page.visible("#conflict"))
    page.wait_titles(["Agenda: budget, hiring, offsite"])
    assert server.notes(token) == ["Agenda: budget, hiring, offsite"]

    # With unsaved edits, deleted elsewhere: said plainly; the text can be kept as a new note.
    page.replace_content("Agenda, final")
    cli("rm", str(agenda))
    page.wait_visible("#conflict")
    assert page.text("#conflict-title") == "This note was deleted elsewhere while you were editing it"
    assert page.text("#mine-content") == "Agenda, final"
    assert not page.visible("#keep-mine")
    page.find("#save-copy").click()
    page.wait_titles(["Agenda, final"])
    assert server.notes(token) == ["Agenda, final"]

    # Untouched and deleted elsewhere: the editor closes, saying why.
    page.wait(page.editor_loaded)
    cli("rm", str(cli.note_id(token, "Agenda, final")))
    page.wait(lambda: page.text("#alert-text") == "The note you had open was deleted elsewhere.")
    page.wait(lambda: not page.visible("#editor"))
    page.wait_titles([])


@contextlib.contextmanager
def own_server(chrome, account, tmp_path, first_note, *options):
    """A server of the test's own, as it is restarted; an account with `first_note`; and a
    browser signed in, following its changes."""
    email, password = account
    own = Server(tmp_path, *options)
    try:
        token = own.create_account(email, password)
        cli = Cli(own, email, token, tmp_path)
        cli("add", first_note, "--date", "2026-11-01")
        page = signed_in(chrome(), own, email, password)
        page.wait_titles([first_note])
        yield own, token, cli, page
    finally:
        own.stop()


def test_reconnects_after_a_server_restart_and_catches_up(chrome, account, tmp_path):
    with own_server(chrome, account, tmp_path, "Before the restart") as (own, token, cli, page):
        own.stop()
        page.wait(lambda: page.visible("#live-status"), "the app never said it was offline")
        assert page.text("#live-status") == "Live updates paused: reconnecting…"
        # Same port and database; the writes come before the app is back, so it learns of
        # them by resuming from its cursor (Last-Event-ID).
        own.restart()
        cli("add", "While it was away", "--date", "2026-11-02")
        cli("rm", str(cli.note_id(token, "Before the restart")))
        wait_live(page)
        page.wait_titles(["While it was away"])
        assert not page.visible("#live-status")

        # And it is live again.
        cli("add", "After the restart", "--date", "2026-11-03")
        page.wait_titles(["After the restart", "While it was away"])


def test_an_expired_cursor_reloads_the_list_in_full(chrome, account, tmp_path):
    # Tombstones kept one second: a tab offline longer than that cannot be caught up.
    with own_server(chrome, account, tmp_path, "Kept", "--change-retention", "1s") as (
            own, token, cli, page):
        # The tab goes offline (its stream blocked, the connection ended by a restart).
        block_live_changes(page.driver)
        own.restart()
        page.wait(lambda: page.visible("#live-status"), "the app never said it was offline")
        # Meanwhile a note is added, and another added and removed, its tombstone purged.
        cli("add", "Added while offline", "--date", "2026-11-02")
        cli("add", "Gone while offline")
        cli("rm", str(cli.note_id(token, "Gone while offline")))
        page.wait(lambda: own.call("GET", "/api/v1/changes?since=1", token=token)[0] == 410,
                  "the tombstone was never purged")

        # Back online: the cursor is refused (410), and the list is loaded again in full.
        page.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        page.driver.execute_script("window.dispatchEvent(new Event('online'))")
        wait_live(page)
        page.wait_titles(["Added while offline", "Kept"])
        console = [entry["message"] for entry in page.driver.get_log("browser")]
        assert [m for m in console if "changes/stream" in m and "410" in m], console


def test_a_session_signed_out_elsewhere_stops_following_and_ends(chrome, server, account):
    email, password = account
    server.create_account(email, password)
    page = signed_in(chrome(), server, email, password)
    # Another sign-in signs out every other session, this browser's included; then writes.
    status, body = server.call("POST", "/api/v1/sessions", {"email": email, "password": password})
    assert status == 201, body
    other = body["token"]
    status, body = server.call("DELETE", "/api/v1/sessions", token=other)
    assert status == 200, body
    status, body = server.call("POST", "/api/v1/notes", {"content": "Not for a signed-out page"}, other)
    assert status == 201, body
    # The page learns it on its own, without a request of the user's: its stream ends, and
    # reconnecting is refused.
    page.wait_visible("#auth-form")
    page.wait(lambda: "session has ended" in page.text("#alert-text"))
    assert "Not for a signed-out page" not in page.driver.page_source
