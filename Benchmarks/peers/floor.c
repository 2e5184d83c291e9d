/*
 * The floor of the benchmarks: the least a program can do for the job.
 *
 *     floor DEVICE PORT
 *
 * reads input_event records from the keypad device and answers every key press with
 * the same two bytes on the serial port (one S7S raw digit command), nothing else: no
 * state, no rendering. What it takes is what the harness and the kernel cost.
 *
 *     floor --ticks PORT START PERIOD
 *
 * is a clock's floor: it writes one byte to the serial port at START, START + PERIOD,
 * START + 2 PERIOD and so on (nanoseconds on CLOCK_MONOTONIC), each on a kernel timer
 * set to that instant, until it is stopped. How late those bytes come is how late this
 * machine lets any clock's frame come.
 */
#include <fcntl.h>
#include <linux/input.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <termios.h>
#include <unistd.h>

static int open_port(const char *path)
{
    int port = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (port < 0)
        return -1;
    struct termios settings;
    if (tcgetattr(port, &settings) == 0) {
        cfmakeraw(&settings);
        cfsetspeed(&settings, B1000000);
        tcsetattr(port, TCSANOW, &settings);
    }
    return port;
}

static int answer_keys(const char *device_path, const char *port_path)
{
    int device = open(device_path, O_RDONLY | O_CLOEXEC);
    int port = open_port(port_path);
    if (device < 0 || port < 0) {
        perror("open");
        return 69;
    }
    static const unsigned char frame[] = {0x7E, 0x3F};
    struct input_event event;
    while (read(device, &event, sizeof event) == (ssize_t)sizeof event) {
        if (event.type != EV_KEY || event.value != 1)
            continue;
        if (write(port, frame, sizeof frame) != (ssize_t)sizeof frame) {
            perror("write");
            return 74;
        }
    }
    return 0;
}

static int tick(const char *port_path, int64_t start, int64_t period)
{
    int port = open_port(port_path);
    if (port < 0) {
        perror("open");
        return 69;
    }
    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    if (timer < 0) {
        perror("timerfd_create");
        return 71;
    }
    static const unsigned char byte = 0x30;
    for (int64_t instant = start;; instant += period) {
        struct itimerspec when = {0};
        when.it_value.tv_sec = instant / 1000000000;
        when.it_value.tv_nsec = instant % 1000000000;
        uint64_t expirations;
        if (timerfd_settime(timer, TFD_TIMER_ABSTIME, &when, NULL) != 0
            || read(timer, &expirations, sizeof expirations) != (ssize_t)sizeof expirations) {
            perror("timer");
            return 71;
        }
        if (write(port, &byte, 1) != 1) {
            perror("write");
            return 74;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc == 3)
        return answer_keys(argv[1], argv[2]);
    if (argc == 5 && strcmp(argv[1], "--ticks") == 0)
        return tick(argv[2], strtoll(argv[3], NULL, 10), strtoll(argv[4], NULL, 10));
    fprintf(stderr, "usage: %s DEVICE PORT\n       %s --ticks PORT START PERIOD\n", argv[0],
            argv[0]);
    return 64;
}
