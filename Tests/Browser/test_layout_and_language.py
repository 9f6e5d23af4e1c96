"""The narrow layout, the Chinese interface with the server's Chinese messages, infinite
scroll over the cursor, and a page that the Content-Security-Policy never had to stop."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from mynotes_page import MyNotesPage


def no_horizontal_scroll(page):
    return page.driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth")


def test_narrow_layout_pushes_the_detail_with_a_back_button(chrome, server, account):
    email, password = account
    page = MyNotesPage(chrome(width=360, height=740), server.url)
    page.open()
    assert page.driver.execute_script("return window.innerWidth") <= 360
    assert no_horizontal_scroll(page)
    page.sign_up(email, password)
    page.wait_signed_in()
    assert no_horizontal_scroll(page)
    # The list fills the screen; there is no detail pane beside it.
    assert page.visible("#list-pane") and not page.visible("#detail-pane")

    page.add_note("A long first line that cannot possibly fit across a phone screen at all")
    # The editor was pushed over the list, with a back button.
    assert page.visible("#detail-pane") and not page.visible("#list-pane")
    assert page.visible("#back")
    assert no_horizontal_scroll(page)
    page.find("#back").click()
    page.wait(lambda: page.visible("#list-pane") and not page.visible("#detail-pane"))
    page.wait_titles(["A long first line that cannot possibly fit across a phone screen at all"])
    assert no_horizontal_scroll(page)

    # Opening a note pushes it again; Esc comes back to the list, to the same row.
    page.open_note(page.titles()[0])
    assert not page.visible("#list-pane")
    page.find("#note-content").send_keys(Keys.ESCAPE)
    page.wait(lambda: page.visible("#list-pane") and not page.visible("#detail-pane"))
    assert page.focused().get_attribute("class") == "note-item"

    # The phone's Back button closes the note too, without leaving the page.
    page.open_note(page.titles()[0])
    page.driver.back()
    page.wait(lambda: page.visible("#list-pane") and not page.visible("#detail-pane"))
    assert page.visible("#notes-view")
    page.open_note(page.titles()[0])
    page.find("#back").click()
    page.wait(lambda: page.visible("#list-pane"))
    assert page.driver.execute_script("return history.state") is None

    # Everything a finger needs is at least 40 px tall, and inside the screen.
    for css in ("#new-note", "#sign-out", ".note-item"):
        box = page.find(css).rect
        assert box["height"] >= 40 and box["x"] >= 0 and box["x"] + box["width"] <= 360, (css, box)

    # On a wide screen the same page shows both panes side by side, and no back button.
    page.driver.set_window_size(1200, 800)
    page.open_note(page.titles()[0])
    assert page.visible("#list-pane") and page.visible("#detail-pane")
    assert not page.visible("#back")


def test_chinese_interface_and_server_messages(chrome, server, account):
    email, password = account
    page = MyNotesPage(chrome(language="zh-CN"), server.url)
    page.open()
    assert page.driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-CN"
    assert page.driver.title == "备忘录"
    assert page.text("#auth-title") == "登录"
    assert page.text("label[for=auth-password]") == "密码"

    # A password that is too short: the server's own message, in Chinese.
    page.find("#auth-switch").click()
    assert page.text("#auth-title") == "注册账户"
    page.sign_up(email, "short")
    status, problem = server.call(
        "POST", "/api/v1/accounts", {"email": email, "password": "short"}, language="zh-CN")
    assert status == 422
    page.wait(lambda: page.text("#auth-error") == problem["detail"])
    assert any("\u4e00" <= character <= "\u9fff" for character in problem["detail"])

    page.find("#auth-password").clear()
    page.sign_up(email, password)
    page.wait_signed_in()
    assert page.list_message() == "还没有备忘录。按 N 或点“新建”来写一条。"
    page.add_note("会议改到周三下午三点")
    page.wait_titles(["会议改到周三下午三点"])
    assert "年" in page.dates()[0]  # the date in Chinese form, e.g. 2026年11月29日 18:30
    page.search("周三")
    page.wait_titles(["会议改到周三下午三点"])
    page.search("周四")
    page.wait_titles([])
    assert page.list_message() == "没有包含“周四”的备忘录。"


def test_infinite_scroll_loads_every_page_once(chrome, server, account):
    email, password = account
    token = server.create_account(email, password)
    expected = []
    for index in range(1, 66):
        content = f"Note number {index:02d}"
        status, _ = server.call(
            "POST", "/api/v1/notes",
            {"content": content, "date": f"2026-10-01 {10 + index // 60}:{index % 60:02d}:00"},
            token)
        assert status == 201
        expected.insert(0, content)
    page = MyNotesPage(chrome(height=700), server.url)
    page.open()
    page.sign_in(email, password)
    page.wait_signed_in()
    # One page first, then the rest as the list scrolls.
    page.wait(lambda: len(page.titles()) == 30)
    for count in (60, 65):
        page.driver.execute_script(
            "document.querySelector('#note-list li:last-child').scrollIntoView()")
        page.wait(lambda: len(page.titles()) == count and not page.loading(), f"{count} rows")
    assert page.titles() == expected
    assert not page.visible("#load-more")


def test_the_policy_never_had_to_block_anything(chrome, server, account):
    email, password = account
    page = MyNotesPage(chrome(), server.url)
    page.open()
    page.sign_up(email, password)
    page.wait_signed_in()
    page.add_note('<img src=x onerror="alert(1)"><style>body{display:none}</style>')
    messages = [entry["message"] for entry in page.driver.get_log("browser")]
    assert not [m for m in messages if "Content Security Policy" in m or "Trusted Type" in m], messages
    assert page.visible("#note-list")
