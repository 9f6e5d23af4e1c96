"""The app as a user sees it: what is on screen, and what a user does to it."""

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

# Generous: the suite shares a small machine with builds and other tests.
TIMEOUT = 20


class MyNotesPage:
    def __init__(self, driver, url):
        self.driver = driver
        self.url = url

    # ------------------------------------------------------------ looking

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def wait(self, condition, message=""):
        """Waits until `condition()` is truthy, ignoring elements that were re-rendered."""
        def check(_):
            try:
                return condition()
            except StaleElementReferenceException:
                return False
        return WebDriverWait(self.driver, TIMEOUT).until(check, message)

    def visible(self, css):
        elements = self.driver.find_elements(By.CSS_SELECTOR, css)
        return bool(elements) and elements[0].is_displayed()

    def wait_visible(self, css):
        self.wait(lambda: self.visible(css), f"{css} never became visible")
        return self.find(css)

    def text(self, css):
        return self.find(css).text

    def titles(self):
        """The list as shown: each row's title, top to bottom."""
        return [row.text for row in self.driver.find_elements(By.CSS_SELECTOR, "#note-list .note-title")]

    def dates(self):
        return [row.text for row in self.driver.find_elements(By.CSS_SELECTOR, "#note-list .note-date")]

    def wait_titles(self, expected):
        self.wait(lambda: self.titles() == expected and not self.loading(),
                  f"list never became {expected!r}")

    def loading(self):
        return self.find("#note-list").get_attribute("aria-busy") == "true"

    def list_message(self):
        return self.text("#list-message")

    def row(self, title):
        for button in self.driver.find_elements(By.CSS_SELECTOR, "#note-list .note-item"):
            if button.find_element(By.CSS_SELECTOR, ".note-title").text == title:
                return button
        raise AssertionError(f"no row titled {title!r} in {self.titles()!r}")

    def focused(self):
        return self.driver.switch_to.active_element

    def editor_loaded(self):
        return (self.visible("#editor") and self.find("#editor").get_attribute("aria-busy") is None
                and self.find("#save").is_enabled())

    # ------------------------------------------------------------ doing

    def open(self):
        self.driver.get(self.url)
        self.wait_visible("#auth-form")

    def sign_up(self, email, password):
        if self.find("#auth-password").get_attribute("autocomplete") != "new-password":
            self.find("#auth-switch").click()
        self._submit_credentials(email, password)

    def sign_in(self, email, password):
        self._submit_credentials(email, password)

    def _submit_credentials(self, email, password):
        email_field = self.find("#auth-email")
        email_field.clear()
        email_field.send_keys(email)
        self.find("#auth-password").send_keys(password)
        self.find("#auth-submit").click()

    def wait_signed_in(self):
        self.wait_visible("#notes-view")
        self.wait(lambda: not self.loading())

    def add_note(self, content):
        self.find("#new-note").click()
        self.wait(self.editor_loaded)
        self.find("#note-content").send_keys(content)
        self.find("#save").click()
        self.wait(lambda: self.find("#detail-title").text != "New note"
                  and self.find("#delete").is_displayed(), "the new note was never saved")

    def open_note(self, title):
        self.row(title).click()
        self.wait(self.editor_loaded)

    def replace_content(self, content):
        field = self.find("#note-content")
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(Keys.DELETE)
        field.send_keys(content)

    def save_with_keyboard(self):
        self.find("#note-content").send_keys(Keys.CONTROL, Keys.ENTER)

    def search(self, query):
        field = self.find("#search")
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(Keys.DELETE)
        if query:
            field.send_keys(query)
        field.send_keys(Keys.ENTER)

    def confirm_dialog(self, accept):
        self.wait(lambda: self.find("#confirm").get_attribute("open") is not None)
        self.find("#confirm-ok" if accept else "#confirm-cancel").click()
        self.wait(lambda: self.find("#confirm").get_attribute("open") is None)
