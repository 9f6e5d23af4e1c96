"""The account page: changing the password, the old one required, signs out
every other session; the user sees where the account is signed in, never a token, and
signs out one session or all the others. Checked behind the browser's back over REST."""

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from mynotes_page import MyNotesPage


def sign_in_over_rest(server, email, password):
    status, body = server.call("POST", "/api/v1/sessions", {"email": email, "password": password})
    assert status == 201, body
    return body["token"]


def still_signed_in(server, token):
    status, _ = server.call("GET", "/api/v1/notes", token=token)
    return status == 200


def open_account(page):
    page.find("#account-open").click()
    page.wait_visible("#account-view")
    page.wait(lambda: page.find("#session-list").get_attribute("aria-busy") == "false",
              "the sessions never loaded")


def session_rows(page):
    return page.driver.find_elements(By.CSS_SELECTOR, "#session-list .session-item")


def test_a_password_change_needs_the_old_password_and_signs_out_the_other_sessions(
        chrome, server, account):
    email, password = account
    page = MyNotesPage(chrome(), server.url)
    page.open()
    page.sign_up(email, password)
    page.wait_signed_in()
    phone = sign_in_over_rest(server, email, password)
    open_account(page)
    assert page.driver.switch_to.active_element == page.find("#account-title")
    assert len(session_rows(page)) == 2
    assert phone not in page.driver.page_source, "a token is never shown"

    page.find("#current-password").send_keys("not my password")
    page.find("#new-password").send_keys("a new password 2")
    page.find("#password-submit").click()
    page.wait(lambda: page.text("#password-error") == "The current password is wrong.")
    assert still_signed_in(server, phone)

    page.find("#current-password").clear()
    page.find("#current-password").send_keys(password)
    page.find("#new-password").clear()
    page.find("#new-password").send_keys("a new password 2")
    page.find("#password-submit").click()
    page.wait(lambda: "Password changed" in page.text("#status"), "no word of the change")
    assert page.find("#current-password").get_attribute("value") == ""
    assert not still_signed_in(server, phone), "the other session was signed out"
    page.wait(lambda: len(session_rows(page)) == 1, "only this browser is left")
    assert "This browser" in session_rows(page)[0].text

    # This browser stays signed in; a new sign-in needs the new password.
    page.find("#account-back").click()
    page.wait_visible("#notes-view")
    page.add_note("written after the change")
    status, _ = server.call("POST", "/api/v1/sessions", {"email": email, "password": password})
    assert status == 401
    sign_in_over_rest(server, email, "a new password 2")


def test_sessions_are_signed_out_one_by_one_or_all_at_once(chrome, server, account):
    email, password = account
    token = server.create_account(email, password)
    others = [sign_in_over_rest(server, email, password) for _ in range(3)]
    page = MyNotesPage(chrome(), server.url)
    page.open()
    page.sign_in(email, password)
    page.wait_signed_in()
    open_account(page)
    rows = session_rows(page)
    assert len(rows) == 5
    assert sum("This browser" in row.text for row in rows) == 1

    # The first listed is the sign-up's session: sign it out alone.
    first = rows[0]
    assert "This browser" not in first.text
    first.find_element(By.CSS_SELECTOR, ".session-revoke").click()
    page.wait(lambda: len(session_rows(page)) == 4)
    assert not still_signed_in(server, token)
    assert all(still_signed_in(server, other) for other in others)

    page.find("#revoke-others").click()
    page.wait(lambda: len(session_rows(page)) == 1)
    page.wait(lambda: "Signed out everywhere else (3)" in page.text("#status"))
    assert not any(still_signed_in(server, other) for other in others)
    assert not page.find("#revoke-others").is_enabled()
    # Esc goes back to the notes, and the app still works.
    page.find("#account-title").send_keys(Keys.ESCAPE)
    page.wait_visible("#notes-view")
    page.add_note("still signed in")


def test_a_session_signed_out_from_elsewhere_ends_this_page(chrome, server, account):
    email, password = account
    server.create_account(email, password)
    first = MyNotesPage(chrome(), server.url)
    first.open()
    first.sign_in(email, password)
    first.wait_signed_in()
    second = MyNotesPage(chrome(), server.url)
    second.open()
    second.sign_in(email, password)
    second.wait_signed_in()
    open_account(second)
    second.find("#revoke-others").click()
    second.wait(lambda: "Signed out everywhere else" in second.text("#status"))
    first.find("#new-note").click()
    first.find("#note-content").send_keys("lost?")
    first.find("#save").click()
    first.wait_visible("#auth-form")
    first.wait(lambda: "session has ended" in first.text("#alert-text"))


@pytest.mark.parametrize("language", ["en-US", "zh-CN"])
def test_the_account_page_has_no_accessibility_violations(chrome, server, account, language):
    email, password = account
    server.create_account(email, password)
    sign_in_over_rest(server, email, password)
    page = MyNotesPage(chrome(language=language), server.url)
    page.open()
    page.sign_in(email, password)
    page.wait_signed_in()
    open_account(page)
    page.find("#current-password").send_keys("wrong password")
    page.find("#new-password").send_keys("a new password 2")
    page.find("#password-submit").click()
    page.wait(lambda: page.text("#password-error"))
    axe = Axe(page.driver)
    axe.inject()
    violations = axe.run()["violations"]
    assert not violations, [f"{v['id']}: {[n['target'] for n in v['nodes']]}" for v in violations]
