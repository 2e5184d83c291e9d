#!/usr/bin/env python3
"""Writes the link order of the functions on a key's path (make key-path-order).

A key comes after the processor has been idle, so what it costs is mostly how much
code it touches: each page of it is a miss in the TLB and the caches. This script runs
the release scoreboardd with a FIFO keypad and two S7S displays on pseudo-terminals,
lets it warm up, then follows it instruction by instruction under gdb
(key-path-trace.py) through its rounds: a key's press and its release, a game clock
started, and its frames in tenths. It writes the functions they ran, in the order they
first ran, one symbol per line, to Sources/scoreboardd/key-path.order, which the release
link (Package.swift) places together at the start of the program's code. After them come
the program's data they read and wrote (type metadata, witness tables, globals), which
the link places together at the start of each section of data the same way.

The linker orders sections, not functions: a function that shares its section with
others (most of the Swift standard library's compiled code is one section of 1.6 MB in
libswiftCore.a) takes all of it to where it is named. Those functions are named last, so
that the section comes after the key's path instead of in the middle of it. Data is
coarser still: Swift gives each source file one section of each kind of data, so a
datum named brings its file's section along. The data of the program's own modules is
named first, then that of the standard library and the runtime, whose sections are
large.

Last come the functions that the board's runs call besides (start-up, the state file,
the control socket, shut-down), found under callgrind: most of them run once, and named
together they keep start-up from touching, and the kernel from mapping, pages all over
the program's code (about 1.3 MB less of it resident).

    python3 scripts/key-path-order.py [BINARY]

BINARY is a release scoreboardd (default: .build/release/scoreboardd). Needs gdb and
valgrind.
"""

import bisect
import json
import os
import pty
import re
import socket
import subprocess
import sys
import tempfile
import time
import tty

from evdev_keys import KEY_BACKSPACE, KEY_KP1, KEY_KPDOT, KEY_KPMINUS, KEY_KPPLUS, key_records

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "Sources", "scoreboardd", "key-path.order")


def pseudo_terminal():
    """A raw, non-blocking pseudo-terminal: its master and the path of its slave."""
    master, slave = pty.openpty()
    tty.setraw(master)
    os.set_blocking(master, False)
    return master, slave, os.ttyname(slave)


def configuration(keypad, scores_port, clock_port, state_file="none", control_socket="none"):
    return f"""[scoreboard]
state-file = {state_file}
control-socket = {control_socket}
log-level = warning

[display scores]
driver = s7s
port = {scores_port}
baud = 1000000

[display clock]
driver = s7s
port = {clock_port}
baud = 1000000

[field home]
display = scores
position = 1
digits = 2

[field away]
display = scores
position = 3
digits = 2

[field game]
type = clock
display = clock
position = 1
length = 20:00
tenths-below = 20:00

[keypad numpad]
driver = evdev
device = {keypad}
grab = no
keymap = numpad

[keymap numpad]
KEY_KPPLUS = add home +1
KEY_KPMINUS = add home -1
KEY_KPENTER = start-stop
"""


def drain(masters):
    """Reads and drops what waits on each pseudo-terminal's master."""
    for master in masters:
        try:
            os.read(master, 4096)
        except BlockingIOError:
            pass


def symbols(binary):
    """The program's functions, as (address, name), and its data with a size, as
    (address, size, name), each sorted by address; from one listing of `nm`."""
    listing = subprocess.run(
        ["nm", "-n", "-S", "--defined-only", binary], capture_output=True, text=True, check=True
    ).stdout
    functions, data = [], []
    for line in listing.splitlines():
        # ADDRESS [SIZE] TYPE NAME; a name may have spaces in it.
        fields = line.split(maxsplit=2)
        if len(fields) < 3:
            continue
        size = 0
        if len(fields[1]) > 1:
            size = int(fields[1], 16)
            fields = [fields[0]] + fields[2].split(maxsplit=1)
            if len(fields) < 3:
                continue
        address, kind, name = int(fields[0], 16), fields[1], fields[2]
        if kind in "tTwW":
            functions.append((address, name))
        elif kind in "dDbBrRvV" and size > 0:
            data.append((address, size, name))
    return functions, data


def data_order(offsets, table):
    """The names of the data at `offsets` (from the program's start, in the order first
    named): the program's own modules' first, then the rest."""
    starts = [address for address, _, _ in table]
    named, seen = [], set()
    for offset in offsets:
        index = bisect.bisect_right(starts, offset) - 1
        if index < 0:
            continue
        address, size, name = table[index]
        if offset < address + size and name not in seen:
            seen.add(name)
            named.append(name)

    def own(name):
        return name.startswith("sbl_") or re.search(r"\d(LinuxIO|Scoreboard[A-Za-z]*)", name)

    return [name for name in named if own(name)] + [name for name in named if not own(name)]


def shared_section_functions(table):
    """The functions of the program that lie in the standard library's one big section.

    Its functions are those of the plain `.text` of Swift.o in libswiftCore.a; its
    global functions give its span in the program. Another of its functions (a weak or
    a local one, which other objects may define too) counts only within that span.
    """
    try:
        info = subprocess.run(
            ["swiftc", "-print-target-info"], capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return set()
    resources = json.loads(info)["paths"]["runtimeResourcePath"]
    archive = os.path.join(resources + "_static", "linux", "libswiftCore.a")
    if not os.path.exists(archive):
        return set()
    listing = subprocess.run(
        ["objdump", "-t", archive], capture_output=True, text=True, check=True
    ).stdout
    anchors, names = set(), set()
    member = None
    for line in listing.splitlines():
        header = re.match(r"^(\S+):\s+file format", line)
        if header:
            member = header.group(1)
            continue
        # ADDRESS FLAGS SECTION SIZE [.hidden] NAME; the flags column has spaces in it.
        match = re.match(r"^[0-9a-f]+ (.{7}) (\S+)\s+[0-9a-f]+ (.+)$", line)
        if member == "Swift.o" and match and match.group(2) == ".text":
            name = match.group(3).split()[-1]
            names.add(name)
            # A global function, not weak, is the program's own copy: its address places
            # the section. A local name may be another object's function of that name.
            if match.group(1).startswith("g") and "w" not in match.group(1):
                anchors.add(name)
    # Where most of them lie within the section's size is the section (a name may have
    # other copies elsewhere in the program, as a specialization made again).
    sizes = subprocess.run(
        ["objdump", "-h", archive], capture_output=True, text=True, check=True
    ).stdout
    size, member = 0, None
    for line in sizes.splitlines():
        header = re.match(r"^(\S+):\s+file format", line)
        if header:
            member = header.group(1)
        fields = line.split()
        if member == "Swift.o" and len(fields) > 2 and fields[1] == ".text":
            size = int(fields[2], 16)
    addresses = sorted(address for address, name in table if name in anchors)
    if not addresses or size == 0:
        return set()
    best, start, end = 0, 0, 0
    for first in range(len(addresses)):
        last = bisect.bisect_right(addresses, addresses[first] + size)
        if last - first > best:
            best, start, end = last - first, addresses[first], addresses[first] + size
    return {name for address, name in table if start <= address <= end and name in names}


def functions_of_a_run(binary, folder):
    """The program's functions that a board's runs call, from start-up to shut-down, in
    the order callgrind lists them: a board started afresh, then again from the state
    file the first run saved. Each run has a control socket; keys are pressed, the
    board is asked for its status, its clock started and stopped, and it is stopped.

    Most of them run once, so they are not on a key's path; named after it, they lie
    together instead of scattered over the program's code, and the pages that start-up
    touches, each with its neighbours (the kernel maps a page's neighbours along with
    it when they are in the page cache), stay few.
    """
    keypad = os.path.join(folder, "run-keypad")
    os.mkfifo(keypad)
    scores, _, scores_port = pseudo_terminal()
    clock, _, clock_port = pseudo_terminal()
    control = os.path.join(folder, "run-control")
    config = os.path.join(folder, "run.ini")
    with open(config, "w") as file:
        file.write(
            configuration(
                keypad, scores_port, clock_port,
                state_file=os.path.join(folder, "run-state"), control_socket=control,
            )
            + "KEY_KP1 = digit 1\nKEY_KPDOT = commit\nKEY_BACKSPACE = undo\n"
        )
    # Valgrind does not read the release build's debug information; a copy without it
    # has the same functions.
    copy = os.path.join(folder, "scoreboardd")
    subprocess.run(["objcopy", "--strip-debug", binary, copy], check=True)
    # Read-write, so that the open waits for no reader and no run sees the FIFO end.
    writer = os.open(keypad, os.O_RDWR)

    def serve(seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            drain((scores, clock))
            time.sleep(0.01)

    def request(line):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(30)
            connection.connect(control)
            connection.sendall(line.encode() + b"\n")
            answer = b""
            while not answer.endswith(b"\n"):
                chunk = connection.recv(4096)
                if not chunk:
                    break
                answer += chunk
        if not answer.startswith(b"ok"):
            sys.exit(f"key-path-order: `{line}` under callgrind: {answer!r}")

    def run(name):
        if os.path.exists(control):
            os.unlink(control)
        output = os.path.join(folder, f"{name}.callgrind")
        log = os.path.join(folder, f"{name}.log")
        daemon = subprocess.Popen(
            ["valgrind", f"--log-file={log}", "--tool=callgrind", "--demangle=no",
             f"--callgrind-out-file={output}", copy, "--config", config],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 120
            while not os.path.exists(control):
                if time.monotonic() > deadline or daemon.poll() is not None:
                    with open(log) as file:
                        sys.exit(f"key-path-order: the daemon did not start:\n{file.read()}")
                serve(0.1)
            for code in [KEY_KPPLUS, KEY_KPMINUS] * 10 + [KEY_KP1, KEY_KPDOT, KEY_BACKSPACE]:
                os.write(writer, key_records(code, 1))
                serve(0.05)
                os.write(writer, key_records(code, 0))
                serve(0.05)
            request("status")
            request("start")
            serve(2)
            request("stop")
            serve(1)
        finally:
            daemon.terminate()
            daemon.wait()
        return callgrind_functions(output, copy)

    try:
        first = run("afresh")
        again = run("restored")
    finally:
        os.close(writer)
    seen = set(first)
    return first + [name for name in again if name not in seen]


def callgrind_functions(output, binary):
    """The functions of `binary` that have a cost in callgrind's `output`, in its order."""
    objects, names = {}, {}
    order, seen = [], set()
    current = None
    binary = os.path.realpath(binary)
    with open(output) as file:
        for line in file:
            match = re.match(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            if not match:
                continue
            kind, number, name = match.groups()
            table = objects if kind.endswith("ob") else names
            if name:
                table[number] = name
            if kind == "ob":
                current = os.path.realpath(objects[number])
            elif kind == "fn" and current == binary and names[number] not in seen:
                seen.add(names[number])
                order.append(names[number])
    return order


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/release/scoreboardd")
    folder = tempfile.mkdtemp(prefix="key-path-order.")
    keypad = os.path.join(folder, "keypad")
    os.mkfifo(keypad)
    scores, _, scores_port = pseudo_terminal()
    clock, _, clock_port = pseudo_terminal()
    config = os.path.join(folder, "scoreboard.ini")
    with open(config, "w") as file:
        file.write(configuration(keypad, scores_port, clock_port))
    daemon = subprocess.Popen([binary, "--config", config])
    writer = os.open(keypad, os.O_WRONLY)

    try:
        # Warm up: whatever the runtime does once (metadata, lazy globals) is done before
        # the trace, which follows the steady rounds.
        time.sleep(0.5)
        for index in range(200):
            code = KEY_KPPLUS if index % 2 == 0 else KEY_KPMINUS
            os.write(writer, key_records(code, 1))
            time.sleep(0.002)
            os.write(writer, key_records(code, 0))
            time.sleep(0.002)
            drain((scores, clock))
        trace = os.path.join(folder, "trace")
        environment = dict(os.environ, KEY_PATH_FIFO=keypad, KEY_PATH_TRACE=trace)
        tracer = os.path.join(ROOT, "scripts", "key-path-trace.py")
        # gdb's complaints about the debug information go to its stderr, shown only when
        # the trace fails.
        gdb = subprocess.run(
            ["gdb", "-p", str(daemon.pid), "-batch", "-nx",
             "-ex", f"python import sys; sys.path.insert(0, {os.path.dirname(tracer)!r})",
             "-ex", f"python exec(open({tracer!r}).read())"],
            env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            timeout=900,
        )
        if gdb.returncode != 0 or not os.path.exists(trace):
            sys.exit(f"key-path-order: gdb failed:\n{gdb.stderr[-4000:]}")
        drain((scores, clock))
        with open(trace) as file:
            lines = file.read().split()
    finally:
        daemon.terminate()
        daemon.wait()
        os.close(writer)

    # The first line is where the program's first mapping starts; then the addresses of
    # the instructions, in the order they first ran; then `data` and the addresses of the
    # memory they named.
    base = int(lines[0], 16)
    data_start = lines.index("data")
    table, data_table = symbols(binary)
    addresses = [address for address, _ in table]
    order, seen = [], set()
    for text in lines[1:data_start]:
        offset = int(text, 16) - base
        index = bisect.bisect_right(addresses, offset) - 1
        if index < 0 or offset >= addresses[-1] + (1 << 20):
            continue
        name = table[index][1]
        if name not in seen:
            seen.add(name)
            order.append(name)
    shared = shared_section_functions(table)
    order = [name for name in order if name not in shared] + [
        name for name in order if name in shared
    ]
    named = (int(text, 16) - base for text in lines[data_start + 1 :])
    data = data_order(named, data_table)
    # A name the program does not define (a runtime function callgrind names without
    # its copy's suffix) is left out.
    defined = {name for _, name in table}
    once = [
        name for name in functions_of_a_run(binary, folder)
        if name in defined and name not in seen
    ]
    with open(OUTPUT, "w") as file:
        file.write("\n".join(order + data + once) + "\n")
    print(
        f"key-path-order: {len(order)} functions and {len(data)} data on a key's path,"
        f" {len(once)} functions of a whole run -> {os.path.relpath(OUTPUT, ROOT)}"
    )


if __name__ == "__main__":
    main()
