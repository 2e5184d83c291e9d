#define _GNU_SOURCE
#include "gpio_libgpiod.h"

#include <gpiod.h>

// The v2 header (2.0 to 2.2) defines no macro but its include guard; libgpiod v1 (up to
// 1.6) defines GPIOD_LINE_BULK_MAX_LINES.
#if !defined(GPIOD_LINE_BULK_MAX_LINES)

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

// One v2 request holds all the lines with their own settings and one event descriptor.
// Reconfiguring hands the kernel the settings of every line, output values included, so
// the shim keeps them: the value each output was last set to, and each line's settings.

/// Edge events read from the kernel at a time.
#define EVENT_BUFFER_SIZE 16

struct held_line {
  unsigned int offset;
  struct sbl_gpio_line_settings settings;  // `value`: what the output drives now
};

struct sbl_gpio_request {
  struct gpiod_line_request *request;
  struct gpiod_edge_event_buffer *events;
  size_t count;
  struct held_line lines[];
};

const char *sbl_gpio_library_version(void) { return gpiod_api_version(); }

int sbl_gpio_api_generation(void) { return 2; }

int sbl_gpio_chip_find_line(const char *path, const char *name, unsigned int *offset) {
  struct gpiod_chip *chip = gpiod_chip_open(path);
  if (chip == NULL) {
    return -1;
  }
  int found = gpiod_chip_get_line_offset_from_name(chip, name);
  int error = errno;
  gpiod_chip_close(chip);
  if (found >= 0) {
    *offset = (unsigned int)found;
    return 1;
  }
  if (error == ENOENT) {
    return 0;
  }
  errno = error;
  return -1;
}

// The libgpiod constants for the shim's; 0 (which libgpiod rejects with EINVAL) for
// values outside the enums.
static enum gpiod_line_direction direction(enum sbl_gpio_direction direction) {
  switch (direction) {
  case SBL_GPIO_INPUT:
    return GPIOD_LINE_DIRECTION_INPUT;
  case SBL_GPIO_OUTPUT:
    return GPIOD_LINE_DIRECTION_OUTPUT;
  }
  return 0;
}

static enum gpiod_line_bias bias(enum sbl_gpio_bias bias) {
  switch (bias) {
  case SBL_GPIO_BIAS_AS_IS:
    return GPIOD_LINE_BIAS_AS_IS;
  case SBL_GPIO_BIAS_DISABLED:
    return GPIOD_LINE_BIAS_DISABLED;
  case SBL_GPIO_BIAS_PULL_UP:
    return GPIOD_LINE_BIAS_PULL_UP;
  case SBL_GPIO_BIAS_PULL_DOWN:
    return GPIOD_LINE_BIAS_PULL_DOWN;
  }
  return 0;
}

static enum gpiod_line_drive drive(enum sbl_gpio_drive drive) {
  switch (drive) {
  case SBL_GPIO_DRIVE_PUSH_PULL:
    return GPIOD_LINE_DRIVE_PUSH_PULL;
  case SBL_GPIO_DRIVE_OPEN_DRAIN:
    return GPIOD_LINE_DRIVE_OPEN_DRAIN;
  case SBL_GPIO_DRIVE_OPEN_SOURCE:
    return GPIOD_LINE_DRIVE_OPEN_SOURCE;
  }
  return 0;
}

static enum gpiod_line_edge edge(enum sbl_gpio_edges edges) {
  switch (edges) {
  case SBL_GPIO_EDGES_NONE:
    return GPIOD_LINE_EDGE_NONE;
  case SBL_GPIO_EDGES_RISING:
    return GPIOD_LINE_EDGE_RISING;
  case SBL_GPIO_EDGES_FALLING:
    return GPIOD_LINE_EDGE_FALLING;
  case SBL_GPIO_EDGES_BOTH:
    return GPIOD_LINE_EDGE_BOTH;
  }
  return 0;
}

// A new libgpiod settings object for `settings`, or NULL with errno. The caller frees it.
static struct gpiod_line_settings *line_settings(const struct sbl_gpio_line_settings *settings) {
  struct gpiod_line_settings *converted = gpiod_line_settings_new();
  if (converted == NULL) {
    return NULL;
  }
  bool output = settings->direction == SBL_GPIO_OUTPUT;
  gpiod_line_settings_set_active_low(converted, settings->active_low);
  int result = gpiod_line_settings_set_direction(converted, direction(settings->direction));
  if (result == 0) {
    result = gpiod_line_settings_set_bias(converted, bias(settings->bias));
  }
  if (result == 0 && output) {
    result = gpiod_line_settings_set_drive(converted, drive(settings->drive));
  }
  if (result == 0 && output) {
    result = gpiod_line_settings_set_output_value(
        converted, settings->value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
  }
  if (result == 0 && !output) {
    result = gpiod_line_settings_set_edge_detection(converted, edge(settings->edges));
    gpiod_line_settings_set_debounce_period_us(converted, settings->debounce_us);
  }
  if (result == -1) {
    int error = errno;
    gpiod_line_settings_free(converted);
    errno = error;
    return NULL;
  }
  return converted;
}

// A new libgpiod line configuration for `lines`, or NULL with errno and `*failed_line`
// at the line whose settings libgpiod refused. The caller frees it. (The libgpiod free
// functions do not all accept NULL.)
static struct gpiod_line_config *line_config(const struct held_line *lines, size_t count,
                                             size_t *failed_line) {
  struct gpiod_line_config *config = gpiod_line_config_new();
  for (size_t i = 0; config != NULL && i < count; i++) {
    *failed_line = i;
    struct gpiod_line_settings *settings = line_settings(&lines[i].settings);
    int result = settings == NULL ? -1
                                  : gpiod_line_config_add_line_settings(
                                        config, &lines[i].offset, 1, settings);
    int error = errno;
    if (settings != NULL) {
      gpiod_line_settings_free(settings);
    }
    if (result == -1) {
      gpiod_line_config_free(config);
      errno = error;
      return NULL;
    }
  }
  return config;
}

// The line a refused request stumbled on: one whose offset the chip lacks, or (EBUSY) one
// that is in use; the first line when the chip does not tell.
static size_t refused_line(struct gpiod_chip *chip, const struct held_line *lines, size_t count,
                           int error) {
  struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
  if (info != NULL) {
    size_t lines_on_chip = gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
    for (size_t i = 0; i < count; i++) {
      if (lines[i].offset >= lines_on_chip) {
        return i;
      }
    }
  }
  for (size_t i = 0; error == EBUSY && i < count; i++) {
    struct gpiod_line_info *line = gpiod_chip_get_line_info(chip, lines[i].offset);
    if (line != NULL) {
      bool used = gpiod_line_info_is_used(line);
      gpiod_line_info_free(line);
      if (used) {
        return i;
      }
    }
  }
  return 0;
}

// Requests `lines` from the chip at `chip_path`; NULL with errno and `*failed_line`.
static struct gpiod_line_request *request_lines(const char *chip_path, const char *consumer,
                                                const struct held_line *lines, size_t count,
                                                size_t *failed_line) {
  struct gpiod_chip *chip = gpiod_chip_open(chip_path);
  if (chip == NULL) {
    return NULL;
  }
  struct gpiod_line_request *request = NULL;
  struct gpiod_request_config *request_config = gpiod_request_config_new();
  struct gpiod_line_config *config =
      request_config == NULL ? NULL : line_config(lines, count, failed_line);
  if (config != NULL) {
    gpiod_request_config_set_consumer(request_config, consumer);
    request = gpiod_chip_request_lines(chip, request_config, config);
    if (request == NULL) {
      int error = errno;
      *failed_line = refused_line(chip, lines, count, error);
      errno = error;
    }
  }
  int error = errno;
  if (config != NULL) {
    gpiod_line_config_free(config);
  }
  if (request_config != NULL) {
    gpiod_request_config_free(request_config);
  }
  gpiod_chip_close(chip);
  errno = error;
  return request;
}

sbl_gpio_request *sbl_gpio_request_lines(const char *chip_path, const char *consumer,
                                         const unsigned int *offsets,
                                         const struct sbl_gpio_line_settings *settings,
                                         size_t count, size_t *failed_line) {
  if (sbl_gpio_check_request(offsets, count, failed_line) == -1) {
    return NULL;
  }
  struct sbl_gpio_request *request = calloc(1, sizeof *request + count * sizeof request->lines[0]);
  if (request == NULL) {
    return NULL;
  }
  request->count = count;
  for (size_t i = 0; i < count; i++) {
    request->lines[i] = (struct held_line){.offset = offsets[i], .settings = settings[i]};
  }
  request->request = request_lines(chip_path, consumer, request->lines, count, failed_line);
  if (request->request == NULL) {
    int error = errno;
    free(request);
    errno = error;
    return NULL;
  }
  *failed_line = 0;
  request->events = gpiod_edge_event_buffer_new(EVENT_BUFFER_SIZE);
  // Events are read without blocking: the caller polls the descriptor first.
  int descriptor = gpiod_line_request_get_fd(request->request);
  int flags = fcntl(descriptor, F_GETFL);
  if (request->events == NULL || flags == -1 ||
      fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == -1) {
    int error = errno;
    sbl_gpio_release(request);
    errno = error;
    return NULL;
  }
  return request;
}

int sbl_gpio_set_value(sbl_gpio_request *request, size_t line, bool value) {
  if (line >= request->count) {
    errno = EINVAL;
    return -1;
  }
  struct held_line *held = &request->lines[line];
  if (gpiod_line_request_set_value(request->request, held->offset,
                                   value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE) ==
      -1) {
    return -1;
  }
  held->settings.value = value;
  return 0;
}

int sbl_gpio_get_value(sbl_gpio_request *request, size_t line) {
  if (line >= request->count) {
    errno = EINVAL;
    return -1;
  }
  enum gpiod_line_value value =
      gpiod_line_request_get_value(request->request, request->lines[line].offset);
  return value == GPIOD_LINE_VALUE_ERROR ? -1 : value == GPIOD_LINE_VALUE_ACTIVE;
}

int sbl_gpio_reconfigure_line(sbl_gpio_request *request, size_t line,
                              const struct sbl_gpio_line_settings *settings) {
  if (line >= request->count) {
    errno = EINVAL;
    return -1;
  }
  struct sbl_gpio_line_settings previous = request->lines[line].settings;
  request->lines[line].settings = *settings;
  size_t failed_line;
  struct gpiod_line_config *config = line_config(request->lines, request->count, &failed_line);
  if (config == NULL) {
    request->lines[line].settings = previous;
    return -1;
  }
  int result = gpiod_line_request_reconfigure_lines(request->request, config);
  int error = errno;
  gpiod_line_config_free(config);
  if (result == -1) {
    request->lines[line].settings = previous;
    errno = error;
  }
  return result;
}

int sbl_gpio_event_descriptor(const sbl_gpio_request *request) {
  return gpiod_line_request_get_fd(request->request);
}

int sbl_gpio_read_events(sbl_gpio_request *request, struct sbl_gpio_edge_event *events,
                         size_t capacity) {
  if (capacity == 0) {
    return 0;
  }
  size_t room = capacity < EVENT_BUFFER_SIZE ? capacity : EVENT_BUFFER_SIZE;
  int read_count = gpiod_line_request_read_edge_events(request->request, request->events, room);
  if (read_count == -1) {
    return errno == EAGAIN ? 0 : -1;
  }
  size_t count = 0;
  for (int i = 0; i < read_count; i++) {
    struct gpiod_edge_event *event =
        gpiod_edge_event_buffer_get_event(request->events, (unsigned long)i);
    unsigned int offset = gpiod_edge_event_get_line_offset(event);
    for (size_t line = 0; line < request->count; line++) {
      if (request->lines[line].offset == offset) {
        events[count++] = (struct sbl_gpio_edge_event){
            .line = line,
            .rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE,
            .timestamp_ns = gpiod_edge_event_get_timestamp_ns(event),
        };
        break;
      }
    }
  }
  return (int)count;
}

void sbl_gpio_release(sbl_gpio_request *request) {
  if (request == NULL) {
    return;
  }
  if (request->events != NULL) {
    gpiod_edge_event_buffer_free(request->events);
  }
  if (request->request != NULL) {
    gpiod_line_request_release(request->request);
  }
  free(request);
}

#define COUNT(array) (sizeof(array) / sizeof(array)[0])

static const struct sbl_gpio_name directions[] = {
    SBL_GPIO_NAME(GPIOD_LINE_DIRECTION_, AS_IS),
    SBL_GPIO_NAME(GPIOD_LINE_DIRECTION_, INPUT),
    SBL_GPIO_NAME(GPIOD_LINE_DIRECTION_, OUTPUT),
};

static const struct sbl_gpio_name edges[] = {
    SBL_GPIO_NAME(GPIOD_LINE_EDGE_, NONE),
    SBL_GPIO_NAME(GPIOD_LINE_EDGE_, RISING),
    SBL_GPIO_NAME(GPIOD_LINE_EDGE_, FALLING),
    SBL_GPIO_NAME(GPIOD_LINE_EDGE_, BOTH),
};

static const struct sbl_gpio_name biases[] = {
    SBL_GPIO_NAME(GPIOD_LINE_BIAS_, AS_IS),
    SBL_GPIO_NAME(GPIOD_LINE_BIAS_, DISABLED),
    SBL_GPIO_NAME(GPIOD_LINE_BIAS_, PULL_UP),
    SBL_GPIO_NAME(GPIOD_LINE_BIAS_, PULL_DOWN),
};

static const struct sbl_gpio_name drives[] = {
    SBL_GPIO_NAME(GPIOD_LINE_DRIVE_, PUSH_PULL),
    SBL_GPIO_NAME(GPIOD_LINE_DRIVE_, OPEN_DRAIN),
    SBL_GPIO_NAME(GPIOD_LINE_DRIVE_, OPEN_SOURCE),
};

static const struct sbl_gpio_name values[] = {
    SBL_GPIO_NAME(GPIOD_LINE_VALUE_, INACTIVE),
    SBL_GPIO_NAME(GPIOD_LINE_VALUE_, ACTIVE),
};

int sbl_gpio_describe_settings(const struct sbl_gpio_line_settings *settings, char *buffer,
                               size_t size) {
  struct gpiod_line_settings *converted = line_settings(settings);
  if (converted == NULL) {
    return -1;
  }
  size_t used = 0;
  sbl_gpio_append(
      buffer, size, &used,
      "direction=%s edge=%s bias=%s drive=%s active_low=%d debounce_us=%lu value=%s",
      sbl_gpio_name_of(directions, COUNT(directions),
                       gpiod_line_settings_get_direction(converted)),
      sbl_gpio_name_of(edges, COUNT(edges), gpiod_line_settings_get_edge_detection(converted)),
      sbl_gpio_name_of(biases, COUNT(biases), gpiod_line_settings_get_bias(converted)),
      sbl_gpio_name_of(drives, COUNT(drives), gpiod_line_settings_get_drive(converted)),
      gpiod_line_settings_get_active_low(converted),
      gpiod_line_settings_get_debounce_period_us(converted),
      sbl_gpio_name_of(values, COUNT(values), gpiod_line_settings_get_output_value(converted)));
  gpiod_line_settings_free(converted);
  if (used >= size) {
    errno = ERANGE;
    return -1;
  }
  return 0;
}

#endif
