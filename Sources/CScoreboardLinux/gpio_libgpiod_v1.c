#define _GNU_SOURCE
#include "gpio_libgpiod.h"

#include <gpiod.h>

// libgpiod v1 (up to 1.6) defines GPIOD_LINE_BULK_MAX_LINES; the v2 header (2.0 to 2.2)
// defines no macro but its include guard.
#if defined(GPIOD_LINE_BULK_MAX_LINES)

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

// A v1 request gives all its lines one configuration, so the shim requests each line on
// its own: lines keep their own settings, and one line is reconfigured without touching
// the others. Each line that reports edges has its own event descriptor; an epoll
// descriptor gathers them into one.

struct held_line {
  struct gpiod_line *line;  // owned by the chip
  bool is_held;             // false after a re-request failed
  struct sbl_gpio_line_settings settings;
};

struct sbl_gpio_request {
  struct gpiod_chip *chip;
  char *consumer;
  int epoll;     // watches the event descriptors of the held lines that report edges
  size_t count;  // lines in `lines`
  struct held_line lines[];
};

const char *sbl_gpio_library_version(void) { return gpiod_version_string(); }

int sbl_gpio_api_generation(void) { return 1; }

int sbl_gpio_chip_find_line(const char *path, const char *name, unsigned int *offset) {
  struct gpiod_chip *chip = gpiod_chip_open(path);
  if (chip == NULL) {
    return -1;
  }
  struct gpiod_line *line = gpiod_chip_find_line(chip, name);
  int error = errno;
  if (line != NULL) {
    *offset = gpiod_line_offset(line);
  }
  gpiod_chip_close(chip);
  if (line == NULL && error != ENOENT) {
    errno = error;
    return -1;
  }
  return line != NULL;
}

static bool reports_edges(const struct sbl_gpio_line_settings *settings) {
  return settings->direction == SBL_GPIO_INPUT && settings->edges != SBL_GPIO_EDGES_NONE;
}

// The request type, flags and default value that give a line `settings`.
static int request_config(const struct sbl_gpio_line_settings *settings, int *type,
                          int *flags, int *value) {
  *flags = settings->active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
  *value = 0;
  switch (settings->bias) {
  case SBL_GPIO_BIAS_AS_IS:
    break;
  case SBL_GPIO_BIAS_DISABLED:
    *flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE;
    break;
  case SBL_GPIO_BIAS_PULL_UP:
    *flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP;
    break;
  case SBL_GPIO_BIAS_PULL_DOWN:
    *flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
    break;
  default:
    errno = EINVAL;
    return -1;
  }
  if (settings->direction == SBL_GPIO_OUTPUT) {
    *type = GPIOD_LINE_REQUEST_DIRECTION_OUTPUT;
    *value = settings->value;
    switch (settings->drive) {
    case SBL_GPIO_DRIVE_PUSH_PULL:
      return 0;
    case SBL_GPIO_DRIVE_OPEN_DRAIN:
      *flags |= GPIOD_LINE_REQUEST_FLAG_OPEN_DRAIN;
      return 0;
    case SBL_GPIO_DRIVE_OPEN_SOURCE:
      *flags |= GPIOD_LINE_REQUEST_FLAG_OPEN_SOURCE;
      return 0;
    default:
      errno = EINVAL;
      return -1;
    }
  }
  if (settings->direction != SBL_GPIO_INPUT) {
    errno = EINVAL;
    return -1;
  }
  if (settings->debounce_us != 0) {
    // The v1 kernel interface has no debounce.
    errno = ENOTSUP;
    return -1;
  }
  switch (settings->edges) {
  case SBL_GPIO_EDGES_NONE:
    *type = GPIOD_LINE_REQUEST_DIRECTION_INPUT;
    return 0;
  case SBL_GPIO_EDGES_RISING:
    *type = GPIOD_LINE_REQUEST_EVENT_RISING_EDGE;
    return 0;
  case SBL_GPIO_EDGES_FALLING:
    *type = GPIOD_LINE_REQUEST_EVENT_FALLING_EDGE;
    return 0;
  case SBL_GPIO_EDGES_BOTH:
    *type = GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES;
    return 0;
  default:
    errno = EINVAL;
    return -1;
  }
}

// Requests line `index` of `request` with `settings` and, when it reports edges, adds its
// event descriptor (made non-blocking) to the request's epoll descriptor.
static int hold(struct sbl_gpio_request *request, size_t index,
                const struct sbl_gpio_line_settings *settings) {
  struct held_line *held = &request->lines[index];
  struct gpiod_line_request_config config = {.consumer = request->consumer};
  int value;
  if (request_config(settings, &config.request_type, &config.flags, &value) == -1 ||
      gpiod_line_request(held->line, &config, value) == -1) {
    return -1;
  }
  if (reports_edges(settings)) {
    int descriptor = gpiod_line_event_get_fd(held->line);
    int flags = fcntl(descriptor, F_GETFL);
    struct epoll_event event = {.events = EPOLLIN, .data.u64 = index};
    if (flags == -1 || fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == -1 ||
        epoll_ctl(request->epoll, EPOLL_CTL_ADD, descriptor, &event) == -1) {
      int error = errno;
      gpiod_line_release(held->line);
      errno = error;
      return -1;
    }
  }
  held->is_held = true;
  held->settings = *settings;
  return 0;
}

sbl_gpio_request *sbl_gpio_request_lines(const char *chip_path, const char *consumer,
                                         const unsigned int *offsets,
                                         const struct sbl_gpio_line_settings *settings,
                                         size_t count, size_t *failed_line) {
  if (sbl_gpio_check_request(offsets, count, failed_line) == -1) {
    return NULL;
  }
  // Settings libgpiod v1 cannot express fail before any line is driven.
  for (size_t i = 0; i < count; i++) {
    int type, flags, value;
    if (request_config(&settings[i], &type, &flags, &value) == -1) {
      *failed_line = i;
      return NULL;
    }
  }
  struct sbl_gpio_request *request = calloc(1, sizeof *request + count * sizeof request->lines[0]);
  if (request == NULL) {
    return NULL;
  }
  request->epoll = -1;
  request->consumer = strdup(consumer);
  bool ok = request->consumer != NULL && (request->chip = gpiod_chip_open(chip_path)) != NULL &&
            (request->epoll = epoll_create1(EPOLL_CLOEXEC)) != -1;
  for (size_t i = 0; ok && i < count; i++) {
    *failed_line = i;
    request->lines[i].line = gpiod_chip_get_line(request->chip, offsets[i]);
    request->count = i + 1;
    ok = request->lines[i].line != NULL && hold(request, i, &settings[i]) == 0;
  }
  if (!ok) {
    int error = errno;
    sbl_gpio_release(request);
    errno = error;
    return NULL;
  }
  return request;
}

// The held line at `index`, or NULL with errno.
static struct gpiod_line *held_line(sbl_gpio_request *request, size_t index) {
  if (index >= request->count) {
    errno = EINVAL;
    return NULL;
  }
  if (!request->lines[index].is_held) {
    errno = EPERM;
    return NULL;
  }
  return request->lines[index].line;
}

int sbl_gpio_set_value(sbl_gpio_request *request, size_t line, bool value) {
  struct gpiod_line *held = held_line(request, line);
  return held == NULL ? -1 : gpiod_line_set_value(held, value);
}

int sbl_gpio_get_value(sbl_gpio_request *request, size_t line) {
  struct gpiod_line *held = held_line(request, line);
  return held == NULL ? -1 : gpiod_line_get_value(held);
}

int sbl_gpio_reconfigure_line(sbl_gpio_request *request, size_t line,
                              const struct sbl_gpio_line_settings *settings) {
  if (line >= request->count) {
    errno = EINVAL;
    return -1;
  }
  struct held_line *held = &request->lines[line];
  int type, flags, value;
  if (request_config(settings, &type, &flags, &value) == -1) {
    return -1;
  }
  if (held->is_held && !reports_edges(&held->settings) && !reports_edges(settings)) {
    // A line requested for values changes in place (GPIOHANDLE_SET_CONFIG_IOCTL).
    if (gpiod_line_set_config(held->line, type, flags, value) == -1) {
      return -1;
    }
    held->settings = *settings;
    return 0;
  }
  // Edge detection is fixed when a v1 line is requested: request the line again. Its old
  // event descriptor closes, which takes it out of the epoll descriptor.
  if (held->is_held) {
    gpiod_line_release(held->line);
    held->is_held = false;
  }
  return hold(request, line, settings);
}

int sbl_gpio_event_descriptor(const sbl_gpio_request *request) { return request->epoll; }

int sbl_gpio_read_events(sbl_gpio_request *request, struct sbl_gpio_edge_event *events,
                         size_t capacity) {
  struct epoll_event ready[SBL_GPIO_MAX_LINES];
  int ready_count = epoll_wait(request->epoll, ready, SBL_GPIO_MAX_LINES, 0);
  if (ready_count == -1) {
    return -1;
  }
  size_t count = 0;
  for (int i = 0; i < ready_count && count < capacity; i++) {
    size_t index = (size_t)ready[i].data.u64;
    struct gpiod_line_event read[16];
    size_t room = capacity - count < 16 ? capacity - count : 16;
    int read_count = gpiod_line_event_read_multiple(request->lines[index].line, read,
                                                    (unsigned int)room);
    if (read_count == -1) {
      if (errno == EAGAIN) {
        continue;
      }
      // Hand over what was read; the error comes back on the next call.
      return count > 0 ? (int)count : -1;
    }
    for (int j = 0; j < read_count; j++) {
      events[count++] = (struct sbl_gpio_edge_event){
          .line = index,
          .rising = read[j].event_type == GPIOD_LINE_EVENT_RISING_EDGE,
          .timestamp_ns = (uint64_t)read[j].ts.tv_sec * 1000000000u + (uint64_t)read[j].ts.tv_nsec,
      };
    }
  }
  return (int)count;
}

void sbl_gpio_release(sbl_gpio_request *request) {
  if (request == NULL) {
    return;
  }
  for (size_t i = 0; i < request->count; i++) {
    if (request->lines[i].is_held) {
      gpiod_line_release(request->lines[i].line);
    }
  }
  if (request->epoll != -1) {
    close(request->epoll);
  }
  if (request->chip != NULL) {
    gpiod_chip_close(request->chip);
  }
  free(request->consumer);
  free(request);
}

static const struct sbl_gpio_name request_types[] = {
    SBL_GPIO_NAME(GPIOD_LINE_REQUEST_, DIRECTION_INPUT),
    SBL_GPIO_NAME(GPIOD_LINE_REQUEST_, DIRECTION_OUTPUT),
    SBL_GPIO_NAME(GPIOD_LINE_REQUEST_, EVENT_RISING_EDGE),
    SBL_GPIO_NAME(GPIOD_LINE_REQUEST_, EVENT_FALLING_EDGE),
    SBL_GPIO_NAME(GPIOD_LINE_REQUEST_, EVENT_BOTH_EDGES),
};

static const struct sbl_gpio_name request_flags[] = {
    SBL_GPIO_NAME(GPIOD_LINE_REQUEST_FLAG_, OPEN_DRAIN),
    SBL_GPIO_NAME(GPIOD_LINE_REQUEST_FLAG_, OPEN_SOURCE),
    SBL_GPIO_NAME(GPIOD_LINE_REQUEST_FLAG_, ACTIVE_LOW),
    SBL_GPIO_NAME(GPIOD_LINE_REQUEST_FLAG_, BIAS_DISABLE),
    SBL_GPIO_NAME(GPIOD_LINE_REQUEST_FLAG_, BIAS_PULL_DOWN),
    SBL_GPIO_NAME(GPIOD_LINE_REQUEST_FLAG_, BIAS_PULL_UP),
};

#define COUNT(array) (sizeof(array) / sizeof(array)[0])

int sbl_gpio_describe_settings(const struct sbl_gpio_line_settings *settings, char *buffer,
                               size_t size) {
  int type, flags, value;
  if (request_config(settings, &type, &flags, &value) == -1) {
    return -1;
  }
  size_t used = 0;
  sbl_gpio_append(buffer, size, &used, "request=%s flags=",
                  sbl_gpio_name_of(request_types, COUNT(request_types), type));
  const char *separator = "";
  for (size_t i = 0; i < COUNT(request_flags); i++) {
    if (flags & request_flags[i].value) {
      sbl_gpio_append(buffer, size, &used, "%s%s", separator, request_flags[i].name);
      separator = "|";
    }
  }
  if (flags == 0) {
    sbl_gpio_append(buffer, size, &used, "0");
  }
  sbl_gpio_append(buffer, size, &used, " value=%d", value);
  if (used >= size) {
    errno = ERANGE;
    return -1;
  }
  return 0;
}

#endif
