/* Follows an output line of scoreboardd on a gpio-sim line by reading its sysfs
 * "value" attribute every millisecond, for the guest of the hardware-in-the-loop tests:
 *
 *   sim-watch /sys/devices/platform/gpio-sim.0/gpiochip0/sim_gpio5/value 3000
 *   sim-watch /sys/devices/platform/gpio-sim.0/gpiochip0/sim_gpio5/value 3000 1
 *
 * Prints "NANOSECONDS VALUE" for the first reading and for each change, NANOSECONDS
 * being CLOCK_MONOTONIC (the clock of the kernel's GPIO and input event timestamps)
 * right after the read that saw the value. The attribute cannot be polled: a
 * reading is late by at most a millisecond and the time of one read. With a LEVEL
 * it stops at the first reading of that level (exit code 0), or fails when the time
 * is up (exit code 1). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: sim-watch VALUE-ATTRIBUTE MILLISECONDS [LEVEL]\n");
        return 64;
    }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "sim-watch: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    long long end = now_ns() + strtoll(argv[2], NULL, 10) * 1000000LL;
    int until = argc == 4 ? argv[3][0] : 0;
    int last = -1;
    for (;;) {
        char value[8];
        ssize_t n = pread(fd, value, sizeof value, 0);
        long long t = now_ns();
        if (n < 1) {
            fprintf(stderr, "sim-watch: read %s: %s\n", argv[1], n < 0 ? strerror(errno) : "empty");
            return 1;
        }
        if (value[0] != last) {
            printf("%lld %c\n", t, value[0]);
            fflush(stdout);
            last = value[0];
        }
        if (until && value[0] == until) return 0;
        if (t >= end) return until ? 1 : 0;
        /* Between two readings: the attribute cannot be waited on. */
        struct timespec pause = {0, 1000000L};
        nanosleep(&pause, NULL);
    }
}
