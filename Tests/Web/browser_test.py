#!/usr/bin/python3
"""The board's pages in a real browser: Debian's chromium, headless, driven through
chromium-driver by Debian's python3-selenium (make test-web).

A daemon of the debug build serves a board with [web]: home and guest on a SparkFun
Serial 7-Segment module (a pseudo-terminal here, read back by a decoder written from
the module's datasheet below), the game clock on a terminal display. In a phone-sized
window:
  - the console pairs with the code scoreboardctl pair printed, types a score on its
    own pad and presses Done: the S7S module shows it; a refusal is shown as refused;
    the clock starts from the phone; the horn sounds while its button is held and stops
    when the window is gone; undo takes the last change back and lists it;
  - /board shows each field as scoreboardctl get reads it, within a deadline;
  - a running game clock on the page agrees with scoreboardctl get game to one shown
    step (a tenth below the tenths threshold, a second above it), sampled many times;
  - /overlay shows the chosen fields; blanking darkens /board;
  - the page says so when the daemon goes away.
Screenshots of both pages go to the folder given as the second argument.

Usage: browser_test.py BUILD_FOLDER SCREENSHOT_FOLDER
"""

import fcntl
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


class SerialSevenSegment:
    """The SparkFun Serial 7-Segment Display (COM-11441), as its datasheet describes
    the serial commands: 0x76 clears the display and puts the cursor on digit 1;
    0x79 N moves the cursor; 0x7B-0x7E S light digit 1-4's segments S (bit 0 = a ...
    bit 6 = g); 0x77 P sets the decimal points and colon; 0x7A B the brightness;
    0x7F B the baud rate; 0x80/0x81 the I2C address and factory reset; any other byte
    is a character written at the cursor (0-9, A-F, x for blank)."""

    FONT = {0x3f: "0", 0x06: "1", 0x5b: "2", 0x4f: "3", 0x66: "4", 0x6d: "5",
            0x7d: "6", 0x07: "7", 0x7f: "8", 0x6f: "9", 0x00: " ", 0x40: "-"}
    ARGUMENT = {0x77, 0x79, 0x7A, 0x7B, 0x7C, 0x7D, 0x7E, 0x7F, 0x80}

    def __init__(self, master):
        self.master = master
        self.digits = [" "] * 4
        self.bits = [0] * 4
        self.cursor = 0
        self.pending = None
        flags = fcntl.fcntl(master, fcntl.F_GETFL)
        fcntl.fcntl(master, fcntl.F_SETFL, flags | os.O_NONBLOCK)

    def shows(self):
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except BlockingIOError:
                break
            if not chunk:
                break
            for byte in chunk:
                self.take(byte)
        return "".join(self.digits)

    def take(self, byte):
        if self.pending is not None:
            command, self.pending = self.pending, None
            if 0x7B <= command <= 0x7E:
                self.digits[command - 0x7B] = self.FONT.get(byte & 0x7F, "?")
                self.bits[command - 0x7B] = byte & 0x7F
            elif command == 0x79 and byte < 4:
                self.cursor = byte
            return
        if byte in self.ARGUMENT:
            self.pending = byte
        elif byte == 0x76:
            self.digits = [" "] * 4
            self.bits = [0] * 4
            self.cursor = 0
        elif byte != 0x81:
            character = chr(byte).upper()
            self.digits[self.cursor % 4] = " " if character == "X" else character
            self.cursor = (self.cursor + 1) % 4


s7s_master, s7s_slave = os.openpty()
s7s_port = os.ttyname(s7s_slave)
wire = SerialSevenSegment(s7s_master)

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
digits = 5

[display wire]
driver = s7s
port = {s7s_port}
baud = 115200

[field home]
label = HOME
display = wire
position = 1
digits = 2

[field away]
label = GUEST
display = wire
position = 3
digits = 2
entry = shift

[field game]
type = clock
display = main
position = 1
length = 1:05
tenths-below = 1:00

[field quarter]
label = QTR
display = main
position = 5
values = 1 2 3 4
lengths = 1:05 1:05 1:05 0:30
scores = home away

[display pens]
driver = terminal
digits = 5

[field home-penalties]
label = PEN
type = penalties
team = home
display = pens
position = 1
slots = 1
lengths = 2:00 5:00

[display side]
driver = terminal
digits = 1

[field home-timeouts]
label = TOL
display = side
position = 1
digits = 1
default = 2
timeouts-of = home

[horn main]
driver = terminal
hold-limit = 10s

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

    def seconds(text):
        text = text.strip()
        if ":" in text:
            minutes, rest = text.split(":")
            return int(minutes) * 60 + float(rest)
        return float(text)

    def check_clock_agrees(page_name, duration=6):
        """Samples the page's game clock between two scoreboardctl gets: the page may
        show either neighbour, or a step beyond (its step and the daemon's rounding)."""
        disagreements = []
        samples = 0
        deadline = time.monotonic() + duration
        while time.monotonic() < deadline:
            before = ctl("get", "game")
            page = shown("game")
            after = ctl("get", "game")
            samples += 1
            low, high = seconds(after), seconds(before)
            step = 0.1 if high < 60 else 1.0
            if not page or not (low - step - 1e-6 <= seconds(page) <= high + step + 1e-6):
                disagreements.append((before, page, after))
        check(samples > 20 and not disagreements,
              f"{page_name}'s clock agrees with the daemon's to one shown step "
              f"({samples} samples; off: {disagreements[:3]})")

    def tap(selector):
        driver.execute_script(
            "var e = document.querySelector(arguments[0]);"
            "if (!e) throw new Error('nothing at ' + arguments[0]); e.click();", selector)

    def visible(selector):
        return driver.execute_script(
            "var e = document.querySelector(arguments[0]);"
            "return !!e && !e.hidden && e.offsetParent !== null;", selector)

    # --- The operator console on a phone ---------------------------------------------
    driver.get(f"http://127.0.0.1:{port}/")
    check(wait_until(lambda: shown("home") == "0"), "the console shows the board before pairing")
    check(wait_until(lambda: visible("#pairing") or visible("#pair-show")),
          "an unpaired phone is offered pairing")
    if not visible("#pairing"):
        tap("#pair-show")
    answer = ctl("pair")
    code = answer.split()[0]
    check(len(code) == 6 and code.isdigit(), f"scoreboardctl pair prints a code ({answer!r})")
    driver.find_element("css selector", "#pair-code").send_keys(code)
    name = driver.find_element("css selector", "#pair-name")
    name.clear()
    name.send_keys("scorer")
    tap("#pair-button")
    check(wait_until(lambda: not visible("#pairing")), "the phone pairs with the code")
    check("scorer (every field" in ctl("devices"), "scoreboardctl devices lists the phone")
    driver.save_screenshot(os.path.join(SHOTS, "console.png"))

    # A score typed on the page's own pad: the S7S module shows it.
    tap('[data-field="home"] .cells')
    check(wait_until(lambda: visible("#pad")), "tapping a field opens the page's number pad")
    for key in ["1", "2"]:
        tap(f'#pad [data-key="{key}"]')
    if visible("#pad"):
        tap('#pad [data-key="done"]')
    check(wait_until(lambda: ctl("get", "home") == "12"), "Done sets home 12 on the board")
    check(wait_until(lambda: wire.shows().startswith("12")),
          f"the S7S module shows home 12 ({wire.shows()!r})")
    tap('[data-field="away"] .cells')
    for key in ["7", "done"]:
        tap(f'#pad [data-key="{key}"]')
    check(wait_until(lambda: wire.shows() == "12 7"), f"the S7S module shows 12 7 ({wire.shows()!r})")
    driver.save_screenshot(os.path.join(SHOTS, "console-pad.png"))

    # The seeds' +1.
    tap('[data-field="away"] [data-action="plus"]')
    check(wait_until(lambda: wire.shows() == "12 8"), "+1 on the phone: away 8 on the wire")

    # A refusal is shown as refused, with the daemon's reason.
    tap('[data-field="away"] .cells')
    tap('#pad [data-key="cancel"]')
    check(ctl("get", "away") == "8", "Cancel changes nothing")
    tap('[data-field="home"] .cells')
    for key in ["9", "9"]:
        tap(f'#pad [data-key="{key}"]')
    if visible("#pad"):
        tap('#pad [data-key="done"]')
    check(wait_until(lambda: ctl("get", "home") == "99"), "type-over entry of 99")
    ctl("set", "home", "12")
    # 20:00 on a clock of 1:05: the daemon refuses it, and the page shows the refusal
    # with the daemon's reason.
    tap('[data-field="game"] .cells')
    for key in ["2", "0", "0", "0"]:
        tap(f'#pad [data-key="{key}"]')
    if visible("#pad"):
        tap('#pad [data-key="done"]')
    refusal = wait_until(lambda: driver.execute_script(
        "var m = document.getElementById('message');"
        "return m && !m.hidden && m.className.indexOf('refused') >= 0 && m.textContent;"))
    check(bool(refusal) and "1:05" in refusal,
          f"a refused value is shown as refused, with its reason ({refusal!r})")
    check(ctl("get", "game") == "1:05.0", f"the clock keeps its time ({ctl('get', 'game')})")
    driver.save_screenshot(os.path.join(SHOTS, "console-refused.png"))

    # Undo, and the changes listed with who made them.
    ctl("set", "home", "20")
    tap("#undo")
    check(wait_until(lambda: ctl("get", "home") == "12"), "undo on the phone takes back home 20")
    check(wait_until(lambda: "web scorer" in driver.execute_script(
        "return document.getElementById('changes').innerText")),
          "the last changes list who made them")

    # The next period from the phone: the quarter moves on and the clock is loaded.
    ctl("set", "game", "0:10")
    tap("#next-period")
    check(wait_until(lambda: ctl("get", "quarter") == "2" and ctl("get", "game") == "1:05.0"),
          f"next period on the phone loads the clock ({ctl('get', 'quarter')}, {ctl('get', 'game')})")
    tap("#undo")
    check(wait_until(lambda: ctl("get", "quarter") == "1" and ctl("get", "game") == "10.0"),
          f"and undo takes it back ({ctl('get', 'quarter')}, {ctl('get', 'game')})")
    ctl("set", "game", "1:05")
    tap('[data-field="home-timeouts"] [data-action="timeout"]')
    check(wait_until(lambda: ctl("get", "home-timeouts") == "1"),
          f"a timeout from the phone takes one ({ctl('get', 'home-timeouts')} left)")
    tap("#undo")
    check(wait_until(lambda: ctl("get", "home-timeouts") == "2"), "and undo gives it back")

    # A penalty given on the phone: the player on the phone's number pad, a length, Give.
    driver.find_element("css selector", '[data-field="home-penalties"] input.player').send_keys("17")
    tap('[data-field="home-penalties"] [data-action="length"][data-value="300000"]')
    tap('[data-field="home-penalties"] [data-action="penalty-add"]')
    check(wait_until(lambda: ctl("get", "home-penalties") == "17/5:00"),
          f"a penalty given on the phone ({ctl('get', 'home-penalties')})")
    check(wait_until(lambda: shown("home-penalties") == "175:00"),
          f"the console shows its slot ({shown('home-penalties')!r})")
    driver.find_element("css selector", '[data-field="home-penalties"] input.player').send_keys("17")
    tap('[data-field="home-penalties"] [data-action="penalty-end"]')
    check(wait_until(lambda: ctl("get", "home-penalties") == "-"), "End on the phone ends it")

    # The clock from the phone, and the horn held.
    tap('[data-field="game"] [data-action="start-stop"]')
    check(wait_until(lambda: "running" in ctl("status")), "start/stop on the phone starts the clock")
    check_clock_agrees("the console", duration=3)
    tap('[data-field="game"] [data-action="start-stop"]')
    check(wait_until(lambda: "running" not in ctl("status")), "and stops it")
    def sounding():
        return '"main":{"sounding":true}' in ctl("status", "--json")

    driver.execute_script(
        "document.querySelector('button[data-horn=\"main\"]')"
        ".dispatchEvent(new PointerEvent('pointerdown', {bubbles: true, cancelable: true}));")
    check(wait_until(sounding), "the horn sounds while its button is held")
    check(not wait_until(lambda: not sounding(), 1.5),
          "it sounds on while held (the page renews the hold)")
    errors = [entry["message"] for entry in driver.get_log("browser")
              if entry["level"] == "SEVERE" and "Failed to load resource" not in entry["message"]]
    check(not errors, f"the console ran without a JavaScript error ({errors[:3]})")
    # The window goes away without a release of the button.
    driver.get("about:blank")
    gone_at = time.monotonic()
    check(wait_until(lambda: not sounding(), 3), "the horn stops once the page is gone")
    silent_after = time.monotonic() - gone_at
    check(silent_after < 1.2, f"within a second of losing the page ({silent_after:.2f} s)")
    ctl("set", "home", "0")
    ctl("set", "away", "0")

    driver.get(f"http://127.0.0.1:{port}/board")
    check(wait_until(lambda: shown("home") == "0"), "/board shows home 0")
    check(driver.title == "Court 1", "/board is titled with the board's name")

    ctl("set", "home", "12")
    ctl("set", "away", "7")
    check(wait_until(lambda: shown("home") == "12" and shown("away") == "7"),
          "/board follows set home 12 and set away 7")

    def board_cells(display):
        text = driver.execute_script(
            "var e = document.querySelector('[data-display=\"' + arguments[0] + '\"]');"
            "return e && e.getAttribute('data-cells');", display)
        return [int(bits) for bits in text.split()] if text else None

    check(wait_until(lambda: wire.shows() == "12 7" and board_cells("wire") == wire.bits),
          f"/board draws the S7S module's segments as the wire has them "
          f"(page {board_cells('wire')}, wire {wire.bits})")

    # The box score: the first quarter's 12-7 kept by next-period, then the second's.
    ctl("next-period")
    ctl("set", "home", "15")

    def box_score():
        return driver.execute_script(
            "var t = document.querySelector('table.box-score'); return t && t.innerText;") or ""

    check(wait_until(lambda: "GUEST\t7\t0\t7" in box_score() and "HOME\t12\t3\t15" in box_score()),
          f"/board shows the box score ({box_score()!r})")
    ctl("undo")
    ctl("undo")

    # A penalty runs on /board with the game clock.
    ctl("penalty", "add", "home", "4", "2:00")
    ctl("start", "game")
    check(wait_until(lambda: (shown("home-penalties") or "").startswith(" 41:5")),
          f"/board runs the penalty with the clock ({shown('home-penalties')!r})")
    ctl("stop", "game")
    ctl("penalty", "remove", "home", "4")
    ctl("set", "game", "1:05")

    # The clock: the page runs it from the published start; it must agree with the
    # daemon to one shown step whenever both are read.
    ctl("start", "game")
    check_clock_agrees("/board")
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
