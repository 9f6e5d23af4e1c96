"""A search marks its matches in the list: as text in <mark> elements, folded as the server
folds, and a note's markup is still never parsed."""

from selenium.webdriver.common.by import By

from mynotes_page import MyNotesPage

STREET = "Wohnung in der Hauptstraße 5, Strasse und STRASSE"
HOSTILE = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'
LONG = "x" * 100 + " the needle is here " + "y" * 100


def titles(page):
    """Each row's title as text (a title cut off by its width hides some <mark> elements
    from Selenium's visible text, so textContent)."""
    return [t.get_attribute("textContent")
            for t in page.driver.find_elements(By.CSS_SELECTOR, "#note-list .note-title")]


def wait_titles(page, expected):
    page.wait(lambda: titles(page) == expected and not page.loading(),
              f"list never became {expected!r}")


def marks(page):
    return [m.get_attribute("textContent")
            for m in page.driver.find_elements(By.CSS_SELECTOR, "#note-list mark.note-match")]


def test_a_search_marks_its_matches_as_text(chrome, server, account):
    email, password = account
    page = MyNotesPage(chrome(), server.url)
    page.open()
    page.sign_up(email, password)
    page.wait_signed_in()
    for content in (STREET, HOSTILE, LONG):
        page.add_note(content)
    wait_titles(page, [LONG, HOSTILE, STREET])

    page.search("strasse")
    wait_titles(page, [STREET])
    assert marks(page) == ["straße", "Strasse", "STRASSE"]

    page.search("script")
    wait_titles(page, [HOSTILE])
    assert marks(page) == ["script", "script"]
    assert page.driver.find_elements(By.CSS_SELECTOR, "#note-list img, #note-list script") == []
    assert page.driver.execute_script("return window.pwned") is None

    # A long note shows the snippet around its match, not its start.
    page.search("NEEDLE")
    wait_titles(page, ["…" + "x" * 25 + " the needle is here " + "y" * 61 + "…"])
    assert marks(page) == ["needle"]

    page.search("")
    wait_titles(page, [LONG, HOSTILE, STREET])
    assert page.driver.find_elements(By.CSS_SELECTOR, "#note-list mark") == []
