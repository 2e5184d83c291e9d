#ifndef GPIO_LIBGPIOD_H
#define GPIO_LIBGPIOD_H

// Inside the GPIO shim: what scoreboard_gpio.c and the file for the libgpiod generation
// in use (gpio_libgpiod_v1.c or gpio_libgpiod_v2.c) share. Not part of the API.

#include "scoreboard_gpio.h"

/// Looks for the line called `name` on the chip at `path`. Returns 1 and stores its
/// offset, 0 when the chip has no such line, or -1 with errno when the chip cannot be
/// opened or read. Implemented once per libgpiod generation.
int sbl_gpio_chip_find_line(const char *path, const char *name, unsigned int *offset);

/// Checks what every request needs: 1 to SBL_GPIO_MAX_LINES lines (EINVAL), no offset
/// twice (EBUSY, with `*failed_line` at the second). Returns 0, or -1 with errno.
int sbl_gpio_check_request(const unsigned int *offsets, size_t count, size_t *failed_line);

/// A libgpiod constant and its name, for sbl_gpio_describe_settings.
struct sbl_gpio_name {
  int value;
  const char *name;
};

/// The table entry of constant `prefix##suffix`, named `suffix`.
#define SBL_GPIO_NAME(prefix, suffix) {prefix##suffix, #suffix}

/// The name of `value` in `names`, or "?".
const char *sbl_gpio_name_of(const struct sbl_gpio_name *names, size_t count, int value);

/// Appends printf-style text at `*used` in `buffer` and advances `*used` by the length
/// of the text, past `size` when it did not fit.
void sbl_gpio_append(char *buffer, size_t size, size_t *used, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

#endif
