/* Presses a button wired to a gpio-sim line by writing its sysfs "pull" attribute
 * with exact timing, for the guest of the hardware-in-the-loop tests:
 *
 *   sim-pull /sys/devices/platform/gpio-sim.0/gpiochip0/sim_gpio17/pull down 3 up 3 down 200 up
 *
 * "down" and "up" write pull-down and pull-up; a number waits that many milliseconds.
 * A shell cannot toggle a line within a few milliseconds reliably; this can. With -t
 * first, each write is preceded by a line "down NANOSECONDS" or "up NANOSECONDS" on
 * standard output: CLOCK_MONOTONIC right before the write, the clock the kernel stamps
 * GPIO edges with. */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    bool stamps = argc > 1 && !strcmp(argv[1], "-t");
    if (stamps) {
        argv++;
        argc--;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: sim-pull [-t] PULL-ATTRIBUTE (down|up|MILLISECONDS)...\n");
        return 64;
    }
    int fd = open(argv[1], O_WRONLY);
    if (fd < 0) {
        fprintf(stderr, "sim-pull: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    for (int i = 2; i < argc; i++) {
        const char *value = NULL;
        if (!strcmp(argv[i], "down")) value = "pull-down";
        else if (!strcmp(argv[i], "up")) value = "pull-up";
        if (value) {
            if (stamps) {
                struct timespec t;
                clock_gettime(CLOCK_MONOTONIC, &t);
                printf("%s %lld\n", argv[i], t.tv_sec * 1000000000LL + t.tv_nsec);
                fflush(stdout);
            }
            if (pwrite(fd, value, strlen(value), 0) < 0) {
                fprintf(stderr, "sim-pull: write %s: %s\n", value, strerror(errno));
                return 1;
            }
        } else {
            /* The line keeps its level this long: the button's timing in the scenario, not
             * a wait for the daemon. */
            long ms = strtol(argv[i], NULL, 10);
            struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
            while (nanosleep(&t, &t) < 0 && errno == EINTR) {
            }
        }
    }
    close(fd);
    return 0;
}
