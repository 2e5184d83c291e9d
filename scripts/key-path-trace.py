"""Runs inside gdb, attached to a warmed-up scoreboardd waiting in epoll_pwait2
(key-path-order.py): follows its rounds one instruction at a time and writes the
address of each instruction the first time it runs, and of each piece of memory an
instruction's operands name (x86-64: worked out from the registers before it runs).

Each round starts when the loop's wait returns and ends at its next wait. Before a round the
script writes its key to the keypad FIFO (KEY_PATH_FIFO), or writes none and lets the
game clock's next frame wake the loop. The trace (KEY_PATH_TRACE) holds the start of the
program's first mapping, then the instructions' addresses in the order they first ran,
then a line `data` and the memory's addresses in the order first named. The folder of
the scripts is on sys.path (evdev_keys).
"""

import os
import re

import gdb
from evdev_keys import KEY_KPENTER, KEY_KPPLUS, key_records

# A press and its release, the clock started (and the key let go), then its frames.
ROUNDS = [(KEY_KPPLUS, 1), (KEY_KPPLUS, 0), (KEY_KPENTER, 1), (KEY_KPENTER, 0)] + [None] * 4
# The loop's wait (glibc's names for it).
POLL = ("epoll_pwait2", "__epoll_pwait2_time64", "__GI_epoll_pwait2")
# A memory operand in AT&T syntax: [segment:]displacement(base,index,scale).
MEMORY = re.compile(
    r"(%[a-z]s:)?(-?0x[0-9a-f]+|-?[0-9]+)?\((%[a-z0-9]+)?(?:,(%[a-z0-9]+)(?:,([1248]))?)?\)"
)
# A RIP-relative operand, which gdb resolves in a comment: `# 0x55555555a0b8 <name>`.
RESOLVED = re.compile(r"#\s*(0x[0-9a-f]+)")


def memory_named(frame, instruction):
    """The addresses of the memory that `instruction` (gdb's disassembly at the frame's
    pc) names in its operands: none for `lea`, `nop` and prefetches, which name memory
    without reading or writing it, nor for operands relative to a segment (thread-local
    storage)."""
    mnemonic = instruction.split(None, 1)[0] if instruction.strip() else ""
    if mnemonic.startswith(("lea", "nop", "prefetch")):
        return []
    if "(%rip)" in instruction:
        resolved = RESOLVED.search(instruction)
        return [int(resolved.group(1), 16)] if resolved else []
    addresses = []
    for segment, displacement, base, index, scale in MEMORY.findall(instruction.split("#")[0]):
        if segment:
            continue
        address = int(displacement, 0) if displacement else 0
        if base:
            address += int(frame.read_register(base[1:])) & (2**64 - 1)
        if index:
            address += (int(frame.read_register(index[1:])) & (2**64 - 1)) * int(scale or "1")
        addresses.append(address & (2**64 - 1))
    return addresses


def program_start():
    """The start of the program's first mapping (its ELF header), from /proc."""
    pid = gdb.selected_inferior().pid
    executable = os.readlink(f"/proc/{pid}/exe")
    with open(f"/proc/{pid}/maps") as maps:
        for line in maps:
            if line.rstrip().endswith(executable):
                return int(line.split("-")[0], 16)
    raise RuntimeError("the program's mapping was not found")


def run():
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    writer = os.open(os.environ["KEY_PATH_FIFO"], os.O_WRONLY)
    first_run = {}
    first_named = {}
    for key in ROUNDS:
        if key is not None:
            os.write(writer, key_records(*key))
        # Out of the wait (the frame it is in, or the wrapper's) into the loop.
        while (gdb.selected_frame().name() or "") in POLL:
            gdb.execute("finish", to_string=True)
        steps = 0
        while steps < 1_000_000:
            frame = gdb.selected_frame()
            name = frame.name() or ""
            if name in POLL:
                break
            first_run.setdefault(frame.pc(), len(first_run))
            instruction = frame.architecture().disassemble(frame.pc())[0]["asm"]
            for address in memory_named(frame, instruction):
                first_named.setdefault(address, len(first_named))
            # The vDSO's clock read loops while its clock source changes under a
            # single step: run it at full speed.
            if "clock_gettime" in name:
                gdb.execute("finish", to_string=True)
            else:
                gdb.execute("stepi", to_string=True)
            steps += 1
    os.close(writer)
    with open(os.environ["KEY_PATH_TRACE"], "w") as out:
        out.write("%x\n" % program_start())
        for pc in first_run:
            out.write("%x\n" % pc)
        out.write("data\n")
        for address in first_named:
            out.write("%x\n" % address)
    gdb.execute("detach")


run()
