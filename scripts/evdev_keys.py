"""Key codes and evdev records for the scripts that drive a FIFO keypad
(key-path-order.py and key-path-trace.py)."""

import struct
import time

# From linux/input-event-codes.h.
KEY_BACKSPACE, KEY_KPMINUS, KEY_KPPLUS, KEY_KP1, KEY_KPDOT, KEY_KPENTER = 14, 74, 78, 79, 83, 96


def key_records(code, value):
    """An evdev key event and its SYN_REPORT, stamped now, as the kernel writes them on
    64-bit: struct input_event is a timeval, then type, code and value."""
    now = time.monotonic()
    seconds, micros = int(now), int((now % 1) * 1e6)
    return struct.pack("qqHHi", seconds, micros, 1, code, value) + struct.pack(
        "qqHHi", seconds, micros, 0, 0, 0
    )
