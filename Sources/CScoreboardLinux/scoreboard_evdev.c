#include "scoreboard_evdev.h"

#include <limits.h>
#include <linux/input.h>
#include <string.h>
#include <sys/ioctl.h>

// Kernel headers older than 4.16 name the fields of the timestamp directly.
#ifndef input_event_sec
#define input_event_sec time.tv_sec
#define input_event_usec time.tv_usec
#endif

size_t sbl_input_event_size(void) { return sizeof(struct input_event); }

void sbl_input_event_decode(const void *record, struct sbl_input_event *event) {
  struct input_event kernel;
  memcpy(&kernel, record, sizeof kernel);
  event->seconds = (int64_t)kernel.input_event_sec;
  event->microseconds = (int64_t)kernel.input_event_usec;
  event->type = kernel.type;
  event->code = kernel.code;
  event->value = kernel.value;
}

void sbl_input_event_encode(const struct sbl_input_event *event, void *record) {
  struct input_event kernel;
  memset(&kernel, 0, sizeof kernel);
  kernel.input_event_sec = event->seconds;
  kernel.input_event_usec = event->microseconds;
  kernel.type = event->type;
  kernel.code = event->code;
  kernel.value = event->value;
  memcpy(record, &kernel, sizeof kernel);
}

int sbl_evdev_grab(int descriptor, int grab) { return ioctl(descriptor, EVIOCGRAB, grab); }

int sbl_evdev_name(int descriptor, char *name, size_t size) {
  if (size == 0) {
    return 0;
  }
  memset(name, 0, size);
  unsigned int length = size > UINT_MAX ? UINT_MAX : (unsigned int)size;
  if (ioctl(descriptor, EVIOCGNAME(length - 1), name) == -1) {
    return -1;
  }
  return 0;
}

// The kernel fills the key bitmap as an array of longs, so bits are tested per long:
// reading it byte by byte would be wrong on a big-endian machine.
#define SBL_BITS_PER_LONG (CHAR_BIT * sizeof(unsigned long))

int sbl_evdev_pressed_keys(int descriptor, uint16_t *codes, size_t capacity) {
  unsigned long bits[(KEY_CNT + SBL_BITS_PER_LONG - 1) / SBL_BITS_PER_LONG];
  memset(bits, 0, sizeof bits);
  if (ioctl(descriptor, EVIOCGKEY(sizeof bits), bits) == -1) {
    return -1;
  }
  int count = 0;
  for (unsigned int code = 0; code < KEY_CNT && (size_t)count < capacity; code++) {
    if (bits[code / SBL_BITS_PER_LONG] & (1UL << (code % SBL_BITS_PER_LONG))) {
      codes[count++] = (uint16_t)code;
    }
  }
  return count;
}

int sbl_evdev_set_clock(int descriptor, int clock) {
  return ioctl(descriptor, EVIOCSCLOCKID, &clock);
}
