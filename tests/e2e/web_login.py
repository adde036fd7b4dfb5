"""The web pages in headless Chromium, against a live peeringd (run by web-login.sh).

Logs in on /login/, creates a token on /user/api-tokens/, reads the key shown once, uses it
with urllib to create an autonomous system, browses /api/peering/autonomous-systems/ as
HTML (the new object is there, with links), saves a screenshot of the tokens page, and logs
out (the tokens page then sends back to the login page).

usage: web_login.py BASE_URL USERNAME PASSWORD SCREENSHOT.png
"""

import json
import sys
import tempfile
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from swagger_ui import browser


def fail(message):
    print(f"[web-login] FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def api(base, method, path, token, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path,
        data=data,
        method=method,
        headers={
            "Authorization": f"Token {token}",
            "Accept": "application/json",
            "Content-Type": "application/json",
        },
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, json.load(response)


def main():
    base, username, password, shot = sys.argv[1:5]
    with tempfile.TemporaryDirectory() as profile:
        driver = browser(profile)
        wait = WebDriverWait(driver, 30)
        try:
            driver.get(base + "/login/")
            driver.find_element(By.ID, "username").send_keys(username)
            driver.find_element(By.ID, "password").send_keys(password)
            driver.find_element(By.ID, "login").click()
            wait.until(EC.url_contains("/user/api-tokens/"))
            if f"Logged in as {username}" not in driver.find_element(By.TAG_NAME, "header").text:
                fail("the header does not name the logged-in user")

            driver.find_element(By.ID, "description").send_keys("made in a browser")
            driver.find_element(By.ID, "create").click()
            key = wait.until(EC.presence_of_element_located((By.ID, "new-token-key"))).text.strip()
            if len(key) != 40:
                fail(f"the key shown is not 40 characters: {key!r}")
            driver.save_screenshot(shot)

            status, created = api(
                base, "POST", "/api/peering/autonomous-systems/", key,
                {"asn": 64512, "name": "Created with a token from the tokens page"},
            )
            if status != 201:
                fail(f"creating with the new token answered {status}")

            driver.get(base + "/api/peering/autonomous-systems/")
            page = driver.find_element(By.ID, "response").text
            if "Created with a token from the tokens page" not in page:
                fail("the browsable API page does not show the new object")
            link = driver.find_element(By.CSS_SELECTOR, f"a[href='{created['url']}']")
            link.click()
            wait.until(EC.url_to_be(created["url"]))
            if "AS64512" not in driver.find_element(By.ID, "response").text:
                fail("the object's own page does not show it")

            driver.get(base + "/user/api-tokens/")
            if key in driver.page_source:
                fail("the tokens page shows an existing key again")
            driver.find_element(By.ID, "logout").click()
            wait.until(EC.url_contains("/login/"))
            driver.get(base + "/user/api-tokens/")
            wait.until(EC.url_contains("/login/?next="))
        finally:
            driver.quit()
    print("[web-login] passed", file=sys.stderr)


if __name__ == "__main__":
    main()
