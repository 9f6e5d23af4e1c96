"""Screenshots of the app for docs/WEB.md, taken by the same real browser as the tests.

Skipped unless MYNOTES_SCREENSHOTS names the folder to write them to:

    MYNOTES_SCREENSHOTS=docs/screenshots scripts/test-browser.sh -k screenshot
"""

import os
import pathlib

import pytest
from selenium.webdriver.common.action_chains import ActionChains

from mynotes_page import MyNotesPage

FOLDER = os.environ.get("MYNOTES_SCREENSHOTS")

NOTES = [
    ("2026-11-22 09:15:00", "Book club: finish chapter 7 of “The Remains of the Day” before Thursday"),
    ("2026-11-24 18:40:00", "周末去菜市场：西红柿、豆腐、青菜、鸡蛋"),
    ("2026-11-26 12:05:00", "Call the plumber about the kitchen tap — ask for Tuesday morning"),
    ("2026-11-27 20:30:00", "Gift ideas for Mei: a fountain pen, the new Murakami, hiking socks"),
    ("2026-11-28 07:50:00", "Run 5 km along the river. Stretch afterwards!"),
    ("2026-11-29 08:15:00",
     "Buy milk & eggs\n\nAlso: bread from the bakery on the corner, and coffee beans "
     "(the Ethiopian ones, not the dark roast)."),
]


@pytest.mark.skipif(not FOLDER, reason="set MYNOTES_SCREENSHOTS to a folder to take them")
@pytest.mark.parametrize("name,width,height,detail", [
    ("desktop", 1280, 900, True),
    ("narrow-list", 360, 800, False),
    ("narrow-detail", 360, 800, True),
])
def test_screenshots(chrome, server, account, name, width, height, detail):
    email, password = f"ann+{name}@example.com", account[1]
    token = server.create_account(email, password)
    for date, content in NOTES:
        status, body = server.call("POST", "/api/v1/notes", {"content": content, "date": date}, token)
        assert status == 201, body
    page = MyNotesPage(chrome(width=width, height=height), server.url)
    page.open()
    page.sign_in(email, password)
    page.wait_signed_in()
    page.wait(lambda: len(page.titles()) == len(NOTES))
    if detail:
        page.open_note(page.titles()[0])
        page.driver.execute_script("document.activeElement.blur()")
    # No hover highlight where the last click happened to leave the pointer.
    ActionChains(page.driver).move_to_element(page.find(".app-title")).perform()
    folder = pathlib.Path(FOLDER)
    folder.mkdir(parents=True, exist_ok=True)
    page.driver.save_screenshot(str(folder / f"{name}.png"))


@pytest.mark.skipif(not FOLDER, reason="set MYNOTES_SCREENSHOTS to a folder to take them")
def test_conflict_screenshot(chrome, server):
    email, password = "ann+conflict@example.com", "correct horse battery"
    token = server.create_account(email, password)
    for date, content in NOTES[:3]:
        server.call("POST", "/api/v1/notes", {"content": content, "date": date}, token)
    page = MyNotesPage(chrome(width=1280, height=900), server.url)
    page.open()
    page.sign_in(email, password)
    page.wait_signed_in()
    title = page.titles()[0]
    page.open_note(title)
    # Another device changes the note while this tab edits it: the live app
    # shows both versions before any save.
    status, body = server.call("GET", "/api/v1/notes?limit=1", token=token)
    note = body["notes"][0]
    page.replace_content("Call the plumber about the kitchen tap — and the bathroom radiator")
    server.call("PUT", f"/api/v1/notes/{note['id']}",
                {"content": "Call the plumber about the kitchen tap — Tuesday 9:00 is booked",
                 "date": note["date"]}, token)
    page.wait_visible("#conflict")
    ActionChains(page.driver).move_to_element(page.find(".app-title")).perform()
    page.driver.save_screenshot(str(pathlib.Path(FOLDER) / "conflict.png"))
