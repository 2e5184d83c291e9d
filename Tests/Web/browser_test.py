#!/usr/bin/python3
"""The board's pages in a real browser: Debian's chromium, headless, driven through
chromium-driver by Debian's python3-selenium (make test-web).

A daemon of the debug build serves a board with [web]; the test changes it through the
control socket (scoreboardctl) and reads, in a phone-sized window:
  - /board shows each field as scoreboardctl get reads it, within a deadline;
  - a running game clock on the page agrees with scoreboardctl get game to one shown
    step (a tenth below the tenths threshold, a second above it), sampled many times;
  - /overlay shows the chosen fields; blanking darkens /board;
  - the page says so when the daemon goes away.
Screenshots of both pages go to the folder given as the second argument.

Usage: browser_test.py BUILD_FOLDER SCREENSHOT_FOLDER
"""

import os
import socket
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

BUILD, SHOTS = sys.argv[1], sys.argv[2]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def wait_until(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    return condition()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


folder = tempfile.mkdtemp(prefix="scoreboardd-web-")
port = free_port()
config = os.path.join(folder, "web.conf")
with open(config, "w") as file:
    file.write(f"""[scoreboard]
state-file = {folder}/state
control-socket = {folder}/control
log-level = info

[display main]
driver = terminal
digits = 9

[field home]
label = HOME
position = 1
digits = 2

[field away]
label = GUEST
position = 3
digits = 2

[field game]
type = clock
position = 5
length = 1:05
tenths-below = 1:00

[web]
listen = 127.0.0.1:{port}
pages = {ROOT}/web
name = Court 1
""")

daemon = subprocess.Popen(
    [f"{BUILD}/scoreboardd", "--config", config],
    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def ctl(*words):
    result = subprocess.run(
        [f"{BUILD}/scoreboardctl", "--socket", f"{folder}/control", *words],
        capture_output=True, text=True, timeout=10)
    return result.stdout.strip()


def serving():
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=360,740",
                 "--disable-dev-shm-usage"]:
    options.add_argument(argument)
driver = None
try:
    check(wait_until(serving), "the daemon serves on its port")
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)

    def shown(field):
        return driver.execute_script(
            "var e = document.querySelector('[data-field=\"' + arguments[0] + '\"]');"
            "return e && e.getAttribute('data-shown');", field)

    driver.get(f"http://127.0.0.1:{port}/board")
    check(wait_until(lambda: shown("home") == "0"), "/board shows home 0")
    check(driver.title == "Court 1", "/board is titled with the board's name")

    ctl("set", "home", "12")
    ctl("set", "away", "7")
    check(wait_until(lambda: shown("home") == "12" and shown("away") == "7"),
          "/board follows set home 12 and set away 7")

    # The clock: the page runs it from the published start; it must agree with the
    # daemon to one shown step whenever both are read.
    ctl("start", "game")
    disagreements = []
    samples = 0
    deadline = time.monotonic() + 7
    while time.monotonic() < deadline:
        before = ctl("get", "game")
        page = shown("game")
        after = ctl("get", "game")
        samples += 1

        def seconds(text):
            text = text.strip()
            if ":" in text:
                minutes, rest = text.split(":")
                return int(minutes) * 60 + float(rest)
            return float(text)

        # The page reads between the two gets: it may show either neighbour, or a step
        # beyond (the page's step and the daemon's rounding).
        low, high = seconds(after), seconds(before)
        step = 0.1 if high < 60 else 1.0
        if not (low - step - 1e-6 <= seconds(page) <= high + step + 1e-6):
            disagreements.append((before, page, after))
    check(samples > 20 and not disagreements,
          f"the page's clock agrees with the daemon's to one shown step "
          f"({samples} samples; off: {disagreements[:3]})")
    driver.save_screenshot(os.path.join(SHOTS, "board.png"))

    ctl("blank", "on")
    check(wait_until(lambda: driver.execute_script(
        "return document.querySelectorAll('.digits .on:not(.colon)').length") == 0),
          "blank on darkens every digit of /board")
    ctl("blank", "off")

    driver.set_window_size(640, 300)
    driver.get(f"http://127.0.0.1:{port}/overlay?fields=home,away,game")

    def overlay():
        return driver.execute_script("return document.getElementById('bug').innerText")

    check(wait_until(lambda: "GUEST" in overlay() and "12" in overlay()),
          f"/overlay shows the chosen fields ({overlay()!r})")
    check(driver.execute_script(
        "return getComputedStyle(document.documentElement).backgroundColor")
          in ("rgba(0, 0, 0, 0)", "transparent"), "/overlay's page is transparent")
    driver.save_screenshot(os.path.join(SHOTS, "overlay.png"))

    driver.set_window_size(360, 740)
    driver.get(f"http://127.0.0.1:{port}/board")
    check(wait_until(lambda: shown("home") == "12"), "/board loads again")
    daemon.terminate()
    daemon.wait(timeout=10)
    check(wait_until(lambda: driver.execute_script(
        "return !document.getElementById('connection').hidden")),
          "/board says when the connection is lost")
finally:
    if driver:
        driver.quit()
    if daemon.poll() is None:
        daemon.kill()
        daemon.wait()

if failures:
    print(f"{len(failures)} browser check(s) failed", file=sys.stderr)
    sys.exit(1)
print("browser checks passed")
