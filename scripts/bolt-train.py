#!/usr/bin/env python3
"""The workload that gives the release scoreboardd its profile, and checks a build.

    scripts/bolt-train.py BINARY

Runs BINARY (a scoreboardd) on a board of this machine's own making, as a club's board
runs: a keypad (a FIFO that gives evdev records), the scores on one S7S module and the
game clock on another (pseudo-terminals at 1,000,000 baud), a shot clock, a state file
and a control socket in a temporary folder. It runs the game clock in tenths for a second,
then presses keys as operators do: +1 and -1 on both scores, each press waiting for the
module's answer, half of them with the release written apart and half with it in the
same write; a score typed in and committed; an edit taken back and cancelled. Then it
asks the control socket for both scores, checks them, and stops the daemon with SIGTERM.
When Mosquitto is installed, a second board does the same with fewer keys and an
`[mqtt]` section, on a broker of its own on a loopback port: every change is published.

scripts/bolt.sh runs it twice: on the instrumented build, whose profile the layout of
the release build is made from (llvm-bolt writes the profile when the daemon exits),
and on the optimized build, which must answer every key and end with the same scores.
Exits 1, saying what went wrong, when a key has no answer, a score is not what the keys
made it, or the daemon does not stop cleanly.
"""

import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import tty

# Linux key codes (linux/input-event-codes.h).
KEY_BACKSPACE, KEY_SPACE = 14, 57
KEY_KPASTERISK, KEY_KPMINUS, KEY_KPPLUS, KEY_KPDOT = 55, 74, 78, 83
KEY_KP1, KEY_KP2, KEY_KPENTER, KEY_KPSLASH = 79, 80, 96, 98
EV_SYN, EV_KEY, SYN_REPORT = 0, 1, 0
ANSWER_SECONDS = 5
ROUNDS = 250
MQTT_ROUNDS = 50

CONFIGURATION = """\
[scoreboard]
state-file = {folder}/state
control-socket = {folder}/control
log-level = warning
blink-interval = 500ms
edit-timeout = 0

[display main]
driver = s7s
port = {scores}
baud = 1000000

[display clock]
driver = s7s
port = {clock}
baud = 1000000

[display shot]
driver = terminal
digits = 2

[field home]
display = main
position = 1
digits = 2

[field away]
display = main
position = 3
digits = 2
placeholder = 0

[field game]
type = clock
display = clock
position = 1
length = 59.9
tenths-below = always

[field shot]
type = shot-clock
display = shot
position = 1
resets = 24 14
follows = game

[keypad numpad]
driver = evdev
device = {keys}
grab = no
keymap = numpad

[keymap numpad]
KEY_KPPLUS = add home +1
KEY_KPMINUS = add home -1
KEY_KPASTERISK = add away +1
KEY_KPSLASH = add away -1
KEY_KP1 = digit 1
KEY_KP2 = digit 2
KEY_BACKSPACE = backspace
KEY_KPDOT = cancel
KEY_KPENTER = commit
KEY_SPACE = start-stop
"""


class Failure(Exception):
    pass


def records(code, value):
    """A key's record and its SYN_REPORT, as the kernel hands them (struct input_event)."""
    layout = "llHHi"  # struct timeval, type, code, value: the machine's own sizes
    return struct.pack(layout, 0, 0, EV_KEY, code, value) + struct.pack(
        layout, 0, 0, EV_SYN, SYN_REPORT, 0
    )


def terminal():
    """A raw pseudo-terminal: the master's descriptor and the slave's path."""
    master, slave = os.openpty()
    tty.setraw(master)
    return master, slave, os.ttyname(slave)


def drain(master):
    """Reads whatever the module was sent so far."""
    while select.select([master], [], [], 0)[0]:
        os.read(master, 4096)


def answer(master, what):
    """Waits for bytes on the module's line, then takes them all."""
    if not select.select([master], [], [], ANSWER_SECONDS)[0]:
        raise Failure(f"{what} had no answer on the display within {ANSWER_SECONDS} s")
    drain(master)


def request(folder, line):
    """One line to the control socket; its answer without the newline."""
    deadline = time.monotonic() + ANSWER_SECONDS
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(ANSWER_SECONDS)
        client.connect(f"{folder}/control")
        client.sendall(line.encode() + b"\n")
        reply = b""
        while not reply.endswith(b"\n"):
            if time.monotonic() > deadline:
                raise Failure(f"'{line}' on the control socket had no whole answer")
            chunk = client.recv(4096)
            if not chunk:
                break
            reply += chunk
    return reply.decode().strip()


def wait_for_socket(folder, daemon):
    deadline = time.monotonic() + ANSWER_SECONDS
    while not os.path.exists(f"{folder}/control"):
        if daemon.poll() is not None:
            raise Failure(f"the daemon exited with status {daemon.returncode} on starting")
        if time.monotonic() > deadline:
            raise Failure("the daemon made no control socket within 5 s")
        select.select([], [], [], 0.01)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_broker(mosquitto, folder):
    """A Mosquitto broker on a loopback port of its own, anonymous; returns it and its port."""
    port = free_port()
    user = "user root\n" if os.geteuid() == 0 else ""  # else it changes to its own user
    with open(f"{folder}/mosquitto.conf", "w") as file:
        file.write(f"{user}persistence false\nlistener {port} 127.0.0.1\nallow_anonymous true\n")
    broker = subprocess.Popen(
        [mosquitto, "-c", f"{folder}/mosquitto.conf"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + ANSWER_SECONDS
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return broker, port
        except OSError:
            if broker.poll() is not None or time.monotonic() > deadline:
                broker.kill()
                raise Failure(f"{mosquitto} did not listen on port {port}")
            select.select([], [], [], 0.01)


def play(binary, folder, rounds, broker_port=None):
    keys = f"{folder}/keys"
    os.mkfifo(keys)
    scores, scores_slave, scores_path = terminal()
    clock, clock_slave, clock_path = terminal()
    configuration = f"{folder}/scoreboardd.conf"
    text = CONFIGURATION.format(folder=folder, scores=scores_path, clock=clock_path, keys=keys)
    if broker_port is not None:
        text += f"\n[mqtt]\nbroker = mqtt://127.0.0.1:{broker_port}\ntopic = scoreboardd/train\n"
    with open(configuration, "w") as file:
        file.write(text)
    keypad = os.open(keys, os.O_RDWR | os.O_NONBLOCK)
    daemon = subprocess.Popen(
        [binary, "--config", configuration], stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL
    )
    try:
        wait_for_socket(folder, daemon)
        answer(scores, "the start")
        answer(clock, "the start (the game clock's module)")

        def press(code, apart=True, answered=True):
            if apart:
                os.write(keypad, records(code, 1))
                if answered:
                    answer(scores, f"key {code}")
                os.write(keypad, records(code, 0))
            else:
                os.write(keypad, records(code, 1) + records(code, 0))
                if answered:
                    answer(scores, f"key {code} (with its release)")

        # The game clock in tenths for about a second: ten frames.
        press(KEY_SPACE, answered=False)
        for frame in range(10):
            answer(clock, f"the running clock's frame {frame + 1}")
        press(KEY_SPACE, answered=False)
        drain(clock)

        # +1 and -1 on both scores, with the release apart and with it.
        for round in range(rounds):
            apart = round % 2 == 0
            for code in (KEY_KPPLUS, KEY_KPASTERISK, KEY_KPMINUS, KEY_KPSLASH):
                press(code, apart)

        # A score typed in and committed (a commit may show what the edit showed, so its
        # answer is not waited for), then an edit taken back and cancelled.
        press(KEY_KP1)
        press(KEY_KP2)
        press(KEY_KPENTER, answered=False)
        press(KEY_KP1)
        press(KEY_BACKSPACE, answered=False)
        press(KEY_KPDOT, answered=False)
        drain(scores)

        home, away = request(folder, "get home"), request(folder, "get away")
        if (home, away) != ("ok 12", "ok 0"):
            raise Failure(f"the scores are '{home}' and '{away}', not 'ok 12' and 'ok 0'")
        daemon.send_signal(signal.SIGTERM)
        try:
            status = daemon.wait(ANSWER_SECONDS)
        except subprocess.TimeoutExpired:
            raise Failure("the daemon did not stop within 5 s of SIGTERM")
        if status != 0:
            raise Failure(f"the daemon exited with status {status} on SIGTERM")
        return rounds * 4 + 6
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
        for descriptor in (keypad, scores, scores_slave, clock, clock_slave):
            os.close(descriptor)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1].strip())
    binary = os.path.abspath(sys.argv[1])
    mosquitto = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin")
    try:
        with tempfile.TemporaryDirectory(prefix="scoreboardd-train-") as folder:
            presses = play(binary, folder, ROUNDS)
        if mosquitto:
            with tempfile.TemporaryDirectory(prefix="scoreboardd-train-") as folder:
                broker, port = start_broker(mosquitto, folder)
                try:
                    presses += play(binary, folder, MQTT_ROUNDS, broker_port=port)
                finally:
                    broker.terminate()
                    broker.wait()
    except Failure as failure:
        sys.exit(f"bolt-train.py: {os.path.basename(binary)}: {failure}")
    with_broker = "" if mosquitto else " (no mosquitto here: the board with [mqtt] left out)"
    print(f"bolt-train.py: {presses} keys pressed and the scores as they made them{with_broker}: {binary}")


if __name__ == "__main__":
    main()
