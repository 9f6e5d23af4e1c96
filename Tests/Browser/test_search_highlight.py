"""A search marks its matches in the list: as text in <mark> elements, folded as the server
folds (issue 15), and a note's markup is still never parsed."""

from selenium.webdriver.common.by import By

from mynotes_page import MyNotesPage

STREET = "Wohnung in der Hauptstraße 5, Strasse und STRASSE"
HOSTILE = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"> script'
LONG = "x" * 100 + " the needle is here " + "y" * 100


def marks(page, title_start):
    row = next(r for r in page.driver.find_elements(By.CSS_SELECTOR, "#note-list .note-item")
               if r.find_element(By.CSS_SELECTOR, ".note-title").text.startswith(title_start))
    return [m.text for m in row.find_elements(By.CSS_SELECTOR, "mark.note-match")]


def test_a_search_marks_its_matches_as_text(chrome, server, account):
    email, password = account
    page = MyNotesPage(chrome(), server.url)
    page.open()
    page.sign_up(email, password)
    page.wait_signed_in()
    for content in (STREET, HOSTILE, LONG):
        page.add_note(content)
    page.wait_titles([LONG, HOSTILE, STREET])

    page.search("strasse")
    page.wait_titles([STREET])
    assert marks(page, "Wohnung") == ["straße", "Strasse", "STRASSE"]

    page.search("script")
    page.wait_titles([HOSTILE])
    assert marks(page, "<script>") == ["script", "script", "script"]
    assert page.driver.find_elements(By.CSS_SELECTOR, "#note-list img, #note-list script") == []
    assert page.driver.execute_script("return window.pwned") is None

    # A long note shows the snippet around its match, not its start.
    page.search("NEEDLE")
    page.wait_titles(["…" + "x" * 25 + " the needle is here " + "y" * 61 + "…"])
    assert marks(page, "…") == ["needle"]

    page.search("")
    page.wait_titles([LONG, HOSTILE, STREET])
    assert page.driver.find_elements(By.CSS_SELECTOR, "#note-list mark") == []
