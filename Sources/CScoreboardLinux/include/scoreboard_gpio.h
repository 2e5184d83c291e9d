#ifndef SCOREBOARD_GPIO_H
#define SCOREBOARD_GPIO_H

// GPIO lines through libgpiod: one API over libgpiod v1 (1.6, Debian bookworm) and v2
// (2.x, trixie and bookworm-backports), chosen when the shim is compiled. Swift sees only
// these types; <gpiod.h> stays inside the shim.
//
// Functions that fail return -1 or NULL and set errno. ENOTSUP means the libgpiod the
// shim was built with cannot do what was asked (kernel debounce with v1).
//
// Values are logical: an active-low line reads 1 when its level is low. Lines are
// addressed by their index in the request that holds them.

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// The most lines one request holds (the kernel's limit for a v2 request).
#define SBL_GPIO_MAX_LINES 64

enum sbl_gpio_direction {
  SBL_GPIO_INPUT,
  SBL_GPIO_OUTPUT,
};

enum sbl_gpio_bias {
  /// Leaves the line's bias as it is.
  SBL_GPIO_BIAS_AS_IS,
  SBL_GPIO_BIAS_DISABLED,
  SBL_GPIO_BIAS_PULL_UP,
  SBL_GPIO_BIAS_PULL_DOWN,
};

/// How an output drives its line.
enum sbl_gpio_drive {
  SBL_GPIO_DRIVE_PUSH_PULL,
  /// Drives low only; high is left to a pull-up.
  SBL_GPIO_DRIVE_OPEN_DRAIN,
  /// Drives high only; low is left to a pull-down.
  SBL_GPIO_DRIVE_OPEN_SOURCE,
};

/// Which changes of an input's logical value produce edge events.
enum sbl_gpio_edges {
  SBL_GPIO_EDGES_NONE,
  SBL_GPIO_EDGES_RISING,
  SBL_GPIO_EDGES_FALLING,
  SBL_GPIO_EDGES_BOTH,
};

/// How one line is configured. `drive` and `value` apply to outputs and are ignored for
/// inputs; `edges` and `debounce_us` apply to inputs and are ignored for outputs.
struct sbl_gpio_line_settings {
  enum sbl_gpio_direction direction;
  bool active_low;
  enum sbl_gpio_bias bias;
  enum sbl_gpio_drive drive;
  enum sbl_gpio_edges edges;
  /// The kernel's debounce period in microseconds, 0 for none. Not zero fails with
  /// ENOTSUP on libgpiod v1: debounce in user space there.
  uint32_t debounce_us;
  /// The logical value an output drives when it is requested or reconfigured.
  bool value;
};

/// An edge on an input, as the kernel reported it.
struct sbl_gpio_edge_event {
  /// The index of the line in its request.
  size_t line;
  /// The logical value rose to 1 (the kernel accounts for active-low lines); otherwise
  /// it fell to 0.
  bool rising;
  /// When it happened: nanoseconds on the monotonic clock.
  uint64_t timestamp_ns;
};

/// Lines requested together on one chip, held until `sbl_gpio_release`.
typedef struct sbl_gpio_request sbl_gpio_request;

/// The version of the libgpiod loaded at run time ("1.6.3", "2.1.3"). Static storage.
const char *sbl_gpio_library_version(void);

/// The libgpiod API the shim was compiled against: 1 or 2.
int sbl_gpio_api_generation(void);

/// Looks for the line called `name` on every GPIO chip in `device_directory` (normally
/// "/dev"; chips are the entries named gpiochipN, searched in numeric order) and stores
/// the first match's chip path in `chip_path` and its offset in `offset`. Returns 0.
/// Fails with ENOENT when no chip has such a line; when a chip could not be opened it
/// fails with that chip's error instead (EACCES: the line may be on it); ERANGE when the
/// path does not fit in `size` bytes.
int sbl_gpio_find_line(const char *device_directory, const char *name, char *chip_path,
                       size_t size, unsigned int *offset);

/// Requests `count` lines (1 to SBL_GPIO_MAX_LINES) of the chip at `chip_path` (a path
/// such as "/dev/gpiochip0") for `consumer`, the name tools such as gpioinfo show. Line
/// `i` is at `offsets[i]` and configured by `settings[i]`; outputs start driving their
/// `value`. The caller owns the returned request and releases it once.
///
/// On failure `*failed_line` is the index of the line the error concerns (the first line
/// when the chip itself failed). EBUSY: a line is in use, by another program or twice in
/// this request; EINVAL: no such offset on the chip; ENOENT: no such chip.
sbl_gpio_request *sbl_gpio_request_lines(const char *chip_path, const char *consumer,
                                         const unsigned int *offsets,
                                         const struct sbl_gpio_line_settings *settings,
                                         size_t count, size_t *failed_line);

/// Drives output `line` to logical `value`; the line keeps it until it is set again,
/// reconfigured or released. Returns 0.
int sbl_gpio_set_value(sbl_gpio_request *request, size_t line, bool value);

/// Reads the logical value of `line`: returns 0 or 1.
int sbl_gpio_get_value(sbl_gpio_request *request, size_t line);

/// Reconfigures `line` of the request (input to output and back, as a bit-banged
/// protocol turns its data line around); the other lines keep their settings and output
/// values. A line that becomes an output drives `settings->value`. Returns 0. On libgpiod
/// v1 a change of edges re-requests the line, which can fail as a request does (EBUSY);
/// the line is then no longer held.
int sbl_gpio_reconfigure_line(sbl_gpio_request *request, size_t line,
                              const struct sbl_gpio_line_settings *settings);

/// A descriptor that polls readable while edge events wait to be read. Owned by the
/// request; it stays the same for the request's life, whatever the lines' settings.
int sbl_gpio_event_descriptor(const sbl_gpio_request *request);

/// Reads up to `capacity` waiting edge events into `events` without blocking. Returns
/// how many it read, 0 when none waits. Events come in the kernel's order for each line;
/// on libgpiod v1 lines are read one after another, so sort by timestamp to merge them.
int sbl_gpio_read_events(sbl_gpio_request *request, struct sbl_gpio_edge_event *events,
                         size_t capacity);

/// Releases the lines and frees the request; outputs go back to the kernel (and the
/// chip's driver) to do with as they please. Does nothing for NULL.
void sbl_gpio_release(sbl_gpio_request *request);

/// Writes into `buffer` how `settings` are handed to libgpiod, in libgpiod's own terms,
/// for tests of the translation. v1: "request=EVENT_BOTH_EDGES flags=BIAS_PULL_UP
/// value=0" (the request type, the request flags and the default value); v2:
/// "direction=INPUT edge=BOTH bias=PULL_UP drive=PUSH_PULL active_low=0 debounce_us=0
/// value=INACTIVE", read back from a gpiod_line_settings object. Returns 0, or -1 with
/// the error a request with these settings fails with (ENOTSUP, EINVAL).
int sbl_gpio_describe_settings(const struct sbl_gpio_line_settings *settings, char *buffer,
                               size_t size);

#endif
