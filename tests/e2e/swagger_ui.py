"""Swagger UI in headless Chromium, against a live peeringd (run by swagger-ui.sh).

Loads /api/schema/swagger-ui/, checks that every application of /api/ has its section and
that every operation of the document is listed under its application, saves a screenshot,
then authorizes with the token and runs "Try it out" on a list operation, which must answer
200 from the same server (it is started with LOGIN_REQUIRED, so that proves the token was
sent). Screenshots: SCREENSHOT (the page, up to 15000 pixels high), and beside it -top (the
first screen) and -try-it-out (the live response).

Swagger UI renders a long list of operations virtually (only the items near the viewport
are in the DOM), so the page is read by scrolling through it.

usage: swagger_ui.py BASE_URL TOKEN SCREENSHOT.png
"""

import json
import os
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
WIDTH, HEIGHT, MAX_SHOT_HEIGHT = 1280, 1000, 15000


def fail(message):
    print(f"[swagger-ui] FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def get_json(url, token):
    request = urllib.request.Request(
        url, headers={"Authorization": f"Token {token}", "Accept": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def expected_operations(doc):
    """{dom id of the operation: (tag, METHOD, path)} from the document."""
    out = {}
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if method not in METHODS:
                continue
            for tag in op.get("tags") or ["default"]:
                out[f"operations-{tag}-{op['operationId']}"] = (tag, method.upper(), path)
    return out


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--disable-domain-reliability",
        "--disable-client-side-phishing-detection",
        "--disable-default-apps",
        "--no-default-browser-check",
        # Anything but loopback (never proxied) goes to a dead proxy: the page and its
        # assets come from the server under test, and nothing else is reached.
        "--proxy-server=http://127.0.0.1:9",
        f"--user-data-dir={profile}",
        f"--window-size={WIDTH},{HEIGHT}",
    ):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))


# The tag sections and operations in the DOM now.
RENDERED = """
const tags = Array.from(document.querySelectorAll('h3.opblock-tag'))
  .map(h => h.getAttribute('data-tag'));
const ops = Array.from(document.querySelectorAll('.opblock')).map(op => {
  const method = op.querySelector('.opblock-summary-method');
  const path = op.querySelector('.opblock-summary-path');
  return [op.id, method ? method.textContent.trim() : '',
          path ? path.getAttribute('data-path') : ''];
});
return [tags, ops, document.documentElement.scrollHeight, window.innerHeight];
"""


def read_page(driver, pause):
    """Scrolls from top to bottom; returns the tags and {id: (METHOD, path)} seen."""
    tags, ops = set(), {}
    y = 0
    while True:
        driver.execute_script("window.scrollTo(0, arguments[0])", y)
        time.sleep(pause)
        seen_tags, seen_ops, height, viewport = driver.execute_script(RENDERED)
        tags.update(seen_tags)
        for op_id, method, path in seen_ops:
            ops[op_id] = (method, path)
        if y + viewport >= height:
            return tags, ops
        y += max(100, viewport // 2)


def find_by_scrolling(driver, element_id, pause=0.3):
    """The element with this id, scrolling down until the virtual list renders it."""
    y = 0
    while True:
        driver.execute_script("window.scrollTo(0, arguments[0])", y)
        time.sleep(pause)
        found = driver.find_elements(By.ID, element_id)
        if found:
            driver.execute_script("arguments[0].scrollIntoView()", found[0])
            time.sleep(pause)
            return driver.find_element(By.ID, element_id)
        height, viewport = driver.execute_script(
            "return [document.documentElement.scrollHeight, window.innerHeight]"
        )
        if y + viewport >= height:
            fail(f"#{element_id} is not on the page")
        y += max(100, viewport // 2)


def screenshot(driver, path):
    driver.execute_script("window.scrollTo(0, 0)")
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(WIDTH, max(HEIGHT, min(int(height) + 100, MAX_SHOT_HEIGHT)))
    time.sleep(1.0)
    ok = driver.save_screenshot(path)
    driver.set_window_size(WIDTH, HEIGHT)
    time.sleep(0.3)
    if not ok:
        fail(f"cannot save the screenshot to {path}")


def try_it_out(driver, wait, token, op_id, shot):
    """Authorize, then Try it out / Execute on one GET operation; returns the status shown."""
    driver.execute_script("window.scrollTo(0, 0)")
    driver.find_element(By.CSS_SELECTOR, ".auth-wrapper .authorize").click()
    field = wait.until(
        EC.visibility_of_element_located((By.CSS_SELECTOR, ".auth-container input"))
    )
    field.send_keys(f"Token {token}")
    driver.find_element(By.CSS_SELECTOR, ".auth-btn-wrapper .modal-btn.auth").click()
    wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, ".auth-btn-wrapper .btn-done")))
    driver.find_element(By.CSS_SELECTOR, ".auth-btn-wrapper .btn-done").click()
    wait.until(EC.invisibility_of_element_located((By.CSS_SELECTOR, ".modal-ux")))

    op = find_by_scrolling(driver, op_id)
    if "is-open" not in (op.get_attribute("class") or ""):
        op.find_element(By.CSS_SELECTOR, ".opblock-summary-control").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#{op_id} .try-out__btn"))
    driver.find_element(By.CSS_SELECTOR, f"#{op_id} .try-out__btn").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#{op_id} .btn.execute"))
    driver.find_element(By.CSS_SELECTOR, f"#{op_id} .btn.execute").click()
    cell = f"#{op_id} .live-responses-table .response .response-col_status"
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, cell))
    driver.execute_script(
        "arguments[0].scrollIntoView()",
        driver.find_element(By.CSS_SELECTOR, f"#{op_id} .responses-wrapper"),
    )
    time.sleep(0.3)
    driver.save_screenshot(shot.replace(".png", "-try-it-out.png"))
    curl = driver.find_element(By.CSS_SELECTOR, f"#{op_id} .curl-command").text
    if f"Token {token}" not in curl:
        fail("the request Swagger UI sent carries no token")
    return driver.find_element(By.CSS_SELECTOR, cell).text.strip()


def main():
    if len(sys.argv) != 4:
        fail(__doc__)
    base, token, shot = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    doc = get_json(f"{base}/api/schema/", token)
    apps = sorted(get_json(f"{base}/api/", token))
    expected = expected_operations(doc)
    expected_tags = {tag for tag, _, _ in expected.values()}
    missing_apps = [app for app in apps if app not in expected_tags]
    if missing_apps:
        fail(f"applications of /api/ without operations in the document: {missing_apps}")

    with tempfile.TemporaryDirectory(prefix="peeringd-chromium-") as profile:
        driver = browser(profile)
        try:
            driver.set_page_load_timeout(60)
            driver.get(f"{base}/api/schema/swagger-ui/")
            wait = WebDriverWait(driver, 60)
            try:
                wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".opblock"))
            except TimeoutException:
                screenshot(driver, shot)
                errors = driver.find_elements(By.CSS_SELECTOR, ".errors-wrapper")
                detail = errors[0].text if errors else "no operation rendered"
                fail(f"Swagger UI did not render the document: {detail} (see {shot})")
            title = driver.find_element(By.CSS_SELECTOR, ".info .title").text
            if "peeringd API" not in title:
                fail(f"unexpected title {title!r}")
            driver.save_screenshot(shot.replace(".png", "-top.png"))

            # Rendering after a scroll takes a frame or two: if anything seems missing,
            # read the page again, more slowly, before calling it missing.
            tags, ops = set(), {}
            for pause in (0.3, 1.0):
                seen_tags, seen_ops = read_page(driver, pause)
                tags |= seen_tags
                ops.update(seen_ops)
                if expected_tags <= tags and set(expected) <= set(ops):
                    break
            screenshot(driver, shot)

            problems = [f"no section for application {app!r}" for app in apps if app not in tags]
            absent = sorted(set(expected) - set(ops))
            if absent:
                problems.append(f"{len(absent)} operation(s) not listed: {absent[:5]}")
            wrong = sorted(
                op_id
                for op_id, (_, method, path) in expected.items()
                if op_id in ops and ops[op_id] != (method, path)
            )
            if wrong:
                problems.append(f"operations listed with another method or path: {wrong[:5]}")
            if problems:
                fail("; ".join(problems) + f" (see {shot})")
            print(
                f"[swagger-ui] {len(expected)} operations listed under "
                f"{', '.join(sorted(tags))}; screenshot {shot}"
            )

            op_id = "operations-peering-peering_autonomous_systems_list"
            status = try_it_out(driver, wait, token, op_id, shot)
            if status != "200":
                fail(f"Try it out with the token answered {status!r}, not 200")
            print("[swagger-ui] Authorize + Try it out: GET autonomous systems answered 200")
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
