#!/usr/bin/env python3
"""The scoreboard a hobbyist would write in Python, to compare scoreboardd with.

It reads key events from a Linux input device, keeps the home and away scores and
writes the whole display to a SparkFun Serial 7-Segment module after every key, as raw
digit commands (0x7B-0x7E + segments) in one write through pyserial. The port is opened
once. Keys: KP+ / KP- add 1 to / take 1 off home, KP* / KP/ the same for away.

    scoreboard_peer.py --device /dev/input/event3 --port /dev/serial0 --baud 9600
"""

import argparse
import struct

import serial

# struct input_event: struct timeval (two longs), __u16 type, __u16 code, __s32 value.
EVENT_FORMAT = "llHHi"
EVENT_SIZE = struct.calcsize(EVENT_FORMAT)
EV_KEY = 1
KEY_RELEASED = 0

KEY_KPASTERISK = 55
KEY_KPMINUS = 74
KEY_KPPLUS = 78
KEY_KPSLASH = 98

# Segments of the digits 0-9 (bit 0 = A ... bit 6 = G).
DIGIT_SEGMENTS = [0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F]
CLEAR = 0x76
FIRST_DIGIT_COMMAND = 0x7B


def frame(home, away):
    """The four raw digit commands for the scores: home blank-padded, away zero-padded."""
    text = f"{home:>2}{away:02}"
    commands = bytearray()
    for position, character in enumerate(text):
        segments = 0 if character == " " else DIGIT_SEGMENTS[int(character)]
        commands += bytes((FIRST_DIGIT_COMMAND + position, segments))
    return bytes(commands)


def clamp(value):
    return max(0, min(99, value))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", required=True, help="the keypad's event device")
    parser.add_argument("--port", required=True, help="the display's serial port")
    parser.add_argument("--baud", type=int, default=9600)
    args = parser.parse_args()

    home = away = 0
    display = serial.Serial(args.port, args.baud)
    display.write(bytes((CLEAR,)) + frame(home, away))
    with open(args.device, "rb") as keypad:
        while True:
            record = keypad.read(EVENT_SIZE)
            if len(record) < EVENT_SIZE:
                break
            _, _, event_type, code, value = struct.unpack(EVENT_FORMAT, record)
            if event_type != EV_KEY or value == KEY_RELEASED:
                continue
            if code == KEY_KPPLUS:
                home = clamp(home + 1)
            elif code == KEY_KPMINUS:
                home = clamp(home - 1)
            elif code == KEY_KPASTERISK:
                away = clamp(away + 1)
            elif code == KEY_KPSLASH:
                away = clamp(away - 1)
            else:
                continue
            display.write(frame(home, away))


if __name__ == "__main__":
    main()
