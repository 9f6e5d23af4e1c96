"""The whole life of an account in the browser, checked on screen and on the server."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import Server
from mynotes_page import MyNotesPage

MILK = "Buy milk & eggs"
CJK = "买牛奶和鸡蛋 🥚 明天早上"
HOSTILE = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'


def test_sign_up_add_edit_search_delete_sign_out_and_back_in(chrome, server, account):
    email, password = account
    page = MyNotesPage(chrome(), server.url)
    page.open()
    assert page.driver.title == "MyNotes"

    # Sign up: the empty list says what to do.
    page.sign_up(email, password)
    page.wait_signed_in()
    assert page.text("#account-email") == email
    assert page.list_message() == "No notes yet. Press N or choose “New note” to write one."
    assert page.text("#detail-empty") == "Select a note, or press N to write a new one."

    # Three notes; the newest is on top, each with its date as the detail line.
    for content in (MILK, CJK, HOSTILE):
        page.add_note(content)
    page.wait_titles([HOSTILE, CJK, MILK])
    assert all(page.dates()), page.dates()
    assert page.text("#status") == "Saved."

    # Markup in a note is shown as its characters, and nothing of it ran or loaded.
    assert page.row(HOSTILE).find_element(By.CSS_SELECTOR, ".note-title").text == HOSTILE
    assert page.driver.find_elements(By.CSS_SELECTOR, "#note-list img, #note-list script") == []
    assert page.driver.execute_script("return window.pwned") is None
    page.open_note(HOSTILE)
    assert page.find("#note-content").get_attribute("value") == HOSTILE

    # Edit: the row shows the new text; the server has it.
    page.open_note(MILK)
    assert page.find("#note-content").get_attribute("value") == MILK
    page.replace_content("Buy milk, eggs and bread")
    page.find("#save").click()
    page.wait_titles([HOSTILE, CJK, "Buy milk, eggs and bread"])
    # ... and again, saved from the keyboard.
    page.replace_content("Buy milk, eggs, bread and tea")
    page.save_with_keyboard()
    page.wait_titles([HOSTILE, CJK, "Buy milk, eggs, bread and tea"])
    edited = "Buy milk, eggs, bread and tea"
    token = server.create_account(f"other-{email}", password)  # another account sees nothing
    assert server.notes(token) == []

    # Search by substring, CJK included, case-insensitively.
    page.search("牛奶")
    page.wait_titles([CJK])
    page.search("BREAD")
    page.wait_titles([edited])
    page.search("nothing like this")
    page.wait_titles([])
    assert page.list_message() == "No notes contain “nothing like this”."
    page.search("")
    page.wait_titles([HOSTILE, CJK, edited])

    # Delete asks first; cancelling keeps the note.
    page.open_note(CJK)
    page.find("#delete").click()
    assert page.text("#confirm-title") == "Delete this note?"
    assert CJK in page.text("#confirm-text")
    page.confirm_dialog(accept=False)
    assert page.titles() == [HOSTILE, CJK, edited]
    page.find("#delete").click()
    page.confirm_dialog(accept=True)
    page.wait_titles([HOSTILE, edited])
    assert page.text("#status") == "Note deleted."
    assert page.visible("#detail-empty")

    # Sign out: back to the form, and nothing of the notes is left in the page.
    page.find("#sign-out").click()
    page.wait_visible("#auth-form")
    assert not page.visible("#notes-view")
    assert page.driver.find_elements(By.CSS_SELECTOR, ".note-item") == []
    assert HOSTILE not in page.driver.page_source.replace("&lt;", "<").replace("&gt;", ">")
    assert page.text("#status") == "You are signed out."

    # Sign in again: the remaining notes are there.
    page.sign_in(email, password)
    page.wait_signed_in()
    page.wait_titles([HOSTILE, edited])

    # The token is kept in memory only: a reload asks to sign in again.
    page.driver.refresh()
    page.wait_visible("#auth-form")
    assert not page.visible("#notes-view")


def test_a_revoked_session_goes_back_to_sign_in_and_says_so(chrome, server, account):
    email, password = account
    token = server.create_account(email, password)
    server.call("POST", "/api/v1/notes", {"content": "Private thoughts"}, token)
    page = MyNotesPage(chrome(), server.url)
    page.open()
    page.sign_in(email, password)
    page.wait_signed_in()
    page.wait_titles(["Private thoughts"])
    page.open_note("Private thoughts")

    # Every token of the account is revoked behind the page's back; its next request
    # meets 401, and the page forgets the session rather than show an error in the list.
    server.reset_token(email)
    page.search("thoughts")
    page.wait_visible("#auth-form")
    assert page.text("#alert-text") == "Your session has ended. Please sign in again."
    assert not page.visible("#notes-view")
    assert page.driver.find_elements(By.CSS_SELECTOR, ".note-item") == []
    assert page.find("#note-content").get_attribute("value") == ""
    assert page.find("#auth-email").get_attribute("value") == email
    assert page.focused().get_attribute("id") == "auth-password"

    # Signing in again brings the notes back, and the alert goes.
    page.sign_in(email, password)
    page.wait_signed_in()
    page.wait_titles(["Private thoughts"])
    assert not page.visible("#alert")


def test_wrong_password_shows_the_servers_message(chrome, server, account):
    email, password = account
    server.create_account(email, password)
    page = MyNotesPage(chrome(), server.url)
    page.open()
    page.sign_in(email, "not the password")
    status, problem = server.call(
        "POST", "/api/v1/sessions", {"email": email, "password": "still not it"})
    assert status == 401
    page.wait(lambda: page.text("#auth-error") == problem["detail"])
    assert not page.visible("#notes-view")


def test_an_empty_note_is_refused_with_the_servers_message(chrome, server, account):
    email, password = account
    token = server.create_account(email, password)
    page = MyNotesPage(chrome(), server.url)
    page.open()
    page.sign_in(email, password)
    page.wait_signed_in()
    page.find("#new-note").click()
    page.wait(page.editor_loaded)
    page.find("#save").click()
    status, problem = server.call("POST", "/api/v1/notes", {"content": ""}, token)
    assert status in (400, 422)
    page.wait(lambda: page.text("#editor-error") == problem["detail"])
    assert page.titles() == []
    assert server.notes(token) == []


def test_an_unreachable_server_is_an_error_state_with_try_again(chrome, account, tmp_path):
    email, password = account
    own = Server(tmp_path)
    try:
        own.create_account(email, password)
        page = MyNotesPage(chrome(), own.url)
        page.open()
        page.sign_in(email, password)
        page.wait_signed_in()
        assert page.list_message() == "No notes yet. Press N or choose “New note” to write one."
    finally:
        own.stop()
    page.search("anything")
    page.wait(lambda: page.list_message()
              == "Cannot reach the server. Check your connection and try again.")
    assert page.visible("#list-retry")
    assert "is-error" in page.find("#list-message").get_attribute("class")
    page.find("#list-retry").click()
    page.wait(lambda: page.visible("#list-retry") and not page.loading())
    # Writing fails the same way, in words, and the text stays in the editor.
    page.find("#new-note").click()
    page.find("#note-content").send_keys("not lost")
    page.find("#save").click()
    page.wait(lambda: page.text("#editor-error")
              == "Cannot reach the server. Check your connection and try again.")
    assert page.find("#note-content").get_attribute("value") == "not lost"


def test_keyboard_alone(chrome, server, account):
    email, password = account
    page = MyNotesPage(chrome(), server.url)
    page.open()
    driver = page.driver
    # The sign-in form has the focus; Tab reaches the switch to sign-up.
    assert page.focused().get_attribute("id") == "auth-email"
    focus_order = []
    for _ in range(3):
        page.focused().send_keys(Keys.TAB)
        focus_order.append(page.focused().get_attribute("id"))
    assert focus_order[:3] == ["auth-password", "auth-submit", "auth-switch"]
    driver.find_element(By.ID, "auth-switch").send_keys(Keys.ENTER)
    assert page.text("#auth-title") == "Create an account"
    assert page.focused().get_attribute("id") == "auth-email"
    page.focused().send_keys(email, Keys.TAB, password, Keys.ENTER)
    page.wait_signed_in()

    # n writes a new note; Ctrl+Enter saves; Esc goes back to the list, on the note's row.
    assert page.focused().get_attribute("id") == "new-note"
    page.focused().send_keys("n")
    page.wait(lambda: page.focused().get_attribute("id") == "note-content")
    page.focused().send_keys("first from the keyboard", Keys.CONTROL, Keys.ENTER)
    page.wait_titles(["first from the keyboard"])
    page.focused().send_keys(Keys.ESCAPE)
    page.wait(lambda: not page.visible("#editor"))
    assert page.focused().text.startswith("first from the keyboard")

    page.focused().send_keys("n")
    page.wait(lambda: page.focused().get_attribute("id") == "note-content")
    page.focused().send_keys("second from the keyboard", Keys.CONTROL, Keys.ENTER)
    page.wait_titles(["second from the keyboard", "first from the keyboard"])
    page.focused().send_keys(Keys.ESCAPE)
    page.wait(lambda: not page.visible("#editor"))

    # Arrows walk the list; Enter opens a note.
    page.focused().send_keys(Keys.ARROW_DOWN)
    assert page.focused().text.startswith("first from the keyboard")
    page.focused().send_keys(Keys.ENTER)
    page.wait(page.editor_loaded)
    assert page.focused().get_attribute("id") == "note-content"
    assert page.focused().get_attribute("value") == "first from the keyboard"

    # Esc with unsaved text asks before dropping it; the dialog's own Esc keeps the text.
    page.focused().send_keys(" (edited)", Keys.ESCAPE)
    page.wait(lambda: page.find("#confirm").get_attribute("open") is not None)
    assert page.focused().get_attribute("id") == "confirm-cancel"
    page.focused().send_keys(Keys.ESCAPE)
    page.wait(lambda: page.find("#confirm").get_attribute("open") is None)
    assert page.find("#note-content").get_attribute("value") == "first from the keyboard (edited)"
    page.save_with_keyboard()
    page.wait_titles(["second from the keyboard", "first from the keyboard (edited)"])

    # / goes to the search box from anywhere but a text field.
    page.find("#note-content").send_keys(Keys.ESCAPE)
    page.wait(lambda: not page.visible("#editor"))
    page.focused().send_keys("/")
    assert page.focused().get_attribute("id") == "search"
    page.focused().send_keys("second", Keys.ENTER)
    page.wait_titles(["second from the keyboard"])
    page.focused().send_keys(Keys.ESCAPE)  # Esc in a filled search box clears it
    page.wait_titles(["second from the keyboard", "first from the keyboard (edited)"])

    # Every control that took the focus showed it (a visible outline).
    outline = driver.execute_script(
        "const b = document.getElementById('new-note'); b.focus();"
        "return getComputedStyle(b).outlineStyle + ' ' + getComputedStyle(b).outlineWidth;")
    assert outline.startswith("solid") and not outline.endswith(" 0px"), outline
