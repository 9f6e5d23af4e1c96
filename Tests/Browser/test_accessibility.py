"""axe-core (bundled by axe-selenium-python) on every screen of the app, in English and in
Chinese: sign-in (and its error), sign-up, the list (and an empty search), a note (and its
status line after a save), a conflict, the delete question and an alert. Any violation, of any impact, fails."""

import pytest
from axe_selenium_python import Axe

from mynotes_page import MyNotesPage


class Audit:
    """Runs axe on the page as it is now, and keeps what it found per screen."""

    def __init__(self, driver):
        self.axe = Axe(driver)
        self.found = {}
        self.screens = []

    def __call__(self, screen):
        # Injected again each time: a screen can be a new document (a reload), and the
        # injection is WebDriver's, so the page's own policy does not apply to it.
        self.axe.inject()
        results = self.axe.run()
        self.screens.append(screen)
        violations = [
            f"{v['id']} ({v['impact']}): {[node['target'] for node in v['nodes']]} — {v['help']}"
            for v in results["violations"]]
        if violations:
            self.found[screen] = violations


@pytest.mark.parametrize("language", ["en-US", "zh-CN"])
def test_no_accessibility_violations_on_any_screen(chrome, server, account, language):
    email, password = account
    token = server.create_account(email, password)
    for content in ("Buy milk & eggs", "买牛奶和鸡蛋", "Call the plumber"):
        status, body = server.call("POST", "/api/v1/notes", {"content": content}, token)
        assert status == 201, body
    page = MyNotesPage(chrome(language=language), server.url)
    audit = Audit(page.driver)

    page.open()
    assert page.find("html").get_attribute("lang") == ("zh-CN" if language == "zh-CN" else "en")
    audit("sign-in")
    page.sign_in(email, "not the password")
    page.wait(lambda: page.text("#auth-error"))
    audit("sign-in, wrong password")
    page.find("#auth-switch").click()
    audit("sign-up")
    page.find("#auth-switch").click()

    page.find("#auth-password").clear()
    page.sign_in(email, password)
    page.wait_signed_in()
    page.wait(lambda: len(page.titles()) == 3)
    audit("list")
    page.search("nothing like this")
    page.wait_titles([])
    audit("list, no matches")
    page.search("")
    page.wait(lambda: len(page.titles()) == 3 and not page.loading())

    page.open_note("Buy milk & eggs")
    audit("note")
    page.find("#delete").click()
    page.wait(lambda: page.find("#confirm").get_attribute("open") is not None)
    audit("note, delete question")
    page.confirm_dialog(accept=False)

    # Another device changes the note while this tab edits it: the live app offers both
    # versions at once.
    notes = {note["content"]: note for note in
             server.call("GET", "/api/v1/notes?limit=10", token=token)[1]["notes"]}
    milk = notes["Buy milk & eggs"]
    page.replace_content("Buy milk, eggs and tea")
    status, body = server.call("PUT", f"/api/v1/notes/{milk['id']}",
                               {"content": "Buy milk, eggs and bread", "date": milk["date"]}, token)
    assert status == 200, body
    page.wait_visible("#conflict")
    audit("conflict")
    page.find("#keep-theirs").click()
    page.wait(page.editor_loaded)
    page.replace_content("Buy milk, eggs, bread and tea")
    page.save_with_keyboard()
    page.wait(lambda: page.text("#status"))
    audit("note, saved (the status line)")

    # The open note deleted elsewhere: the alert says so.
    page.open_note("Call the plumber")
    status, _ = server.call("DELETE", f"/api/v1/notes/{notes['Call the plumber']['id']}", token=token)
    assert status == 204
    page.wait_visible("#alert")
    audit("list, alert")

    assert len(audit.screens) == 10
    assert not audit.found, "\n".join(
        f"{screen}:\n  " + "\n  ".join(violations) for screen, violations in audit.found.items())
