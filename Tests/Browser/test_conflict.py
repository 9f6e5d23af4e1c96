"""Two tabs edit the same note: the stale save gets 412, and the user sees both versions
and chooses. Nothing is lost without the user saying so.

These tabs have their change stream blocked: live, the second tab would learn of the first
one's save before saving (test_live.py); offline, or when a save beats the stream, the 412
is what tells it."""

from mynotes_page import MyNotesPage


def two_tabs(chrome, server, account, content):
    email, password = account
    token = server.create_account(email, password)
    status, _ = server.call("POST", "/api/v1/notes", {"content": content}, token)
    assert status == 201
    driver = chrome()
    tabs = []
    for index in range(2):
        if index:
            driver.switch_to.new_window("tab")
        block_live_changes(driver)
        page = MyNotesPage(driver, server.url)
        page.open()
        # The token is kept per tab, in memory: each tab signs in.
        page.sign_in(email, password)
        page.wait_signed_in()
        page.wait_titles([content])
        page.open_note(content)
        tabs.append((driver.current_window_handle, page))
    return token, tabs


def block_live_changes(driver):
    """This tab's requests for the change stream fail as if the network were down."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/v1/changes/stream*"]})


def switch(tab):
    handle, page = tab
    page.driver.switch_to.window(handle)
    return page


def test_second_save_of_a_stale_note_shows_both_versions(chrome, server, account):
    token, (first, second) = two_tabs(chrome, server, account, "Meeting at 10")

    # The first tab saves; the second still shows the version it opened.
    page = switch(first)
    page.replace_content("Meeting at 11 (moved by Ann)")
    page.find("#save").click()
    page.wait_titles(["Meeting at 11 (moved by Ann)"])

    page = switch(second)
    assert page.find("#note-content").get_attribute("value") == "Meeting at 10"
    page.replace_content("Meeting at 10, bring the slides")
    page.find("#save").click()

    # The save was refused; both versions are on screen, and the server still has the first.
    page.wait_visible("#conflict")
    assert page.text("#conflict-title") == "This note was changed in another window"
    assert page.text("#theirs-title") == "Saved version"
    assert page.text("#theirs-content") == "Meeting at 11 (moved by Ann)"
    assert page.text("#mine-title") == "Your version"
    assert page.text("#mine-content") == "Meeting at 10, bring the slides"
    assert server.notes(token) == ["Meeting at 11 (moved by Ann)"]
    # The list already shows what the server has.
    assert page.titles() == ["Meeting at 11 (moved by Ann)"]

    # Keeping mine replaces exactly the version the user was shown.
    page.find("#keep-mine").click()
    page.wait(lambda: page.visible("#editor") and not page.visible("#conflict"))
    assert page.find("#note-content").get_attribute("value") == "Meeting at 10, bring the slides"
    page.wait_titles(["Meeting at 10, bring the slides"])
    assert server.notes(token) == ["Meeting at 10, bring the slides"]

    # Now the first tab is the stale one. It saves, and keeps the saved version instead:
    # its own text is dropped only because the user chose so.
    page = switch(first)
    page.replace_content("Meeting at 11, room 4")
    page.find("#save").click()
    page.wait_visible("#conflict")
    assert page.text("#theirs-content") == "Meeting at 10, bring the slides"
    assert page.text("#mine-content") == "Meeting at 11, room 4"
    page.find("#keep-theirs").click()
    page.wait(lambda: page.visible("#editor"))
    assert page.find("#note-content").get_attribute("value") == "Meeting at 10, bring the slides"
    assert server.notes(token) == ["Meeting at 10, bring the slides"]
    # With the latest version in hand, the first tab saves without a conflict.
    page.replace_content("Meeting at 10, slides and projector")
    page.save_with_keyboard()
    page.wait_titles(["Meeting at 10, slides and projector"])

    # And the second tab, stale again, saves its text as a new note: both are kept.
    page = switch(second)
    page.replace_content("Slides: ask Bo for the Q3 numbers")
    page.save_with_keyboard()
    page.wait_visible("#conflict")
    page.find("#save-copy").click()
    page.wait(lambda: page.visible("#editor"))
    both = sorted(["Meeting at 10, slides and projector", "Slides: ask Bo for the Q3 numbers"])
    page.wait(lambda: sorted(page.titles()) == both)
    assert page.find("#note-content").get_attribute("value") == "Slides: ask Bo for the Q3 numbers"
    assert sorted(server.notes(token)) == both


def test_saving_a_note_deleted_in_another_tab_offers_to_keep_the_text(chrome, server, account):
    token, (first, second) = two_tabs(chrome, server, account, "Draft of the letter")
    page = switch(first)
    page.find("#delete").click()
    page.confirm_dialog(accept=True)
    page.wait_titles([])

    page = switch(second)
    page.replace_content("Draft of the letter, second paragraph")
    page.find("#save").click()
    page.wait_visible("#conflict")
    assert page.text("#conflict-title") == "This note was deleted in another window"
    assert page.text("#mine-content") == "Draft of the letter, second paragraph"
    assert not page.visible("#keep-mine")
    page.find("#save-copy").click()
    page.wait_titles(["Draft of the letter, second paragraph"])
    assert server.notes(token) == ["Draft of the letter, second paragraph"]
