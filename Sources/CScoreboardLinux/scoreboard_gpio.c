#define _GNU_SOURCE
#include "gpio_libgpiod.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The parts of the GPIO shim that are the same for libgpiod v1 and v2.

static int is_chip(const struct dirent *entry) {
  return strncmp(entry->d_name, "gpiochip", 8) == 0 && isdigit((unsigned char)entry->d_name[8]);
}

int sbl_gpio_find_line(const char *device_directory, const char *name, char *chip_path,
                       size_t size, unsigned int *offset) {
  struct dirent **chips;
  // versionsort puts gpiochip10 after gpiochip9.
  int count = scandir(device_directory, &chips, is_chip, versionsort);
  if (count == -1) {
    return -1;
  }
  int error = ENOENT;
  bool found = false;
  for (int i = 0; i < count; i++) {
    char path[PATH_MAX];
    if (!found && (size_t)snprintf(path, sizeof path, "%s/%s", device_directory,
                                   chips[i]->d_name) < sizeof path) {
      int result = sbl_gpio_chip_find_line(path, name, offset);
      if (result == 1) {
        found = true;
        error = (size_t)snprintf(chip_path, size, "%s", path) < size ? 0 : ERANGE;
      } else if (result == -1 && error == ENOENT) {
        error = errno;
      }
    }
    free(chips[i]);
  }
  free(chips);
  if (error != 0) {
    errno = error;
    return -1;
  }
  return 0;
}

int sbl_gpio_check_request(const unsigned int *offsets, size_t count, size_t *failed_line) {
  *failed_line = 0;
  if (count == 0 || count > SBL_GPIO_MAX_LINES) {
    errno = EINVAL;
    return -1;
  }
  for (size_t i = 1; i < count; i++) {
    for (size_t j = 0; j < i; j++) {
      if (offsets[i] == offsets[j]) {
        *failed_line = i;
        errno = EBUSY;
        return -1;
      }
    }
  }
  return 0;
}

const char *sbl_gpio_name_of(const struct sbl_gpio_name *names, size_t count, int value) {
  for (size_t i = 0; i < count; i++) {
    if (names[i].value == value) {
      return names[i].name;
    }
  }
  return "?";
}

void sbl_gpio_append(char *buffer, size_t size, size_t *used, const char *format, ...) {
  if (*used >= size) {
    return;
  }
  va_list arguments;
  va_start(arguments, format);
  int length = vsnprintf(buffer + *used, size - *used, format, arguments);
  va_end(arguments);
  *used += length > 0 ? (size_t)length : 0;
}
