#ifndef SCOREBOARD_EVDEV_H
#define SCOREBOARD_EVDEV_H

// Linux input devices (evdev). The EVIOC* request numbers are function-like macros that
// Swift cannot import, and `struct input_event` changes size with the userland (24 bytes
// on 64-bit, 16 on 32-bit), so records are read and written here, from the kernel's own
// definition. Functions that fail return -1 and set errno, like the ioctls they wrap (a
// descriptor that is not an input device, such as a FIFO, fails with ENOTTY).

#include <linux/input-event-codes.h>  // EV_*, SYN_*, LED_*, KEY_*: plain constants
#include <stddef.h>
#include <stdint.h>

/// The fields of one `struct input_event`, in fixed-size types.
struct sbl_input_event {
  int64_t seconds;
  int64_t microseconds;
  uint16_t type;
  uint16_t code;
  int32_t value;
};

/// `sizeof(struct input_event)` in this userland.
size_t sbl_input_event_size(void);

/// Reads the record at `record` (sbl_input_event_size() bytes, any alignment).
void sbl_input_event_decode(const void *record, struct sbl_input_event *event);

/// Writes `event` as a record at `record` (sbl_input_event_size() bytes, any alignment).
void sbl_input_event_encode(const struct sbl_input_event *event, void *record);

/// Takes (`grab` 1) or gives back (`grab` 0) exclusive delivery of the device's events.
int sbl_evdev_grab(int descriptor, int grab);

/// Writes the device's name, NUL-terminated and cut to `size` bytes, into `name`.
int sbl_evdev_name(int descriptor, char *name, size_t size);

/// Stores the codes of the keys down now, in ascending order, into `codes` (at most
/// `capacity`; KEY_CNT is enough) and returns how many.
int sbl_evdev_pressed_keys(int descriptor, uint16_t *codes, size_t capacity);

/// Makes the device timestamp its events with `clock` (CLOCK_MONOTONIC: the daemon's
/// clock) instead of CLOCK_REALTIME.
int sbl_evdev_set_clock(int descriptor, int clock);

#endif
