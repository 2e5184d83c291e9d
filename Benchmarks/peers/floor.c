/*
 * The floor of the benchmarks: the least a program can do for the job.
 *
 *     floor DEVICE PORT
 *
 * reads input_event records from the keypad device and answers every key press with
 * the same two bytes on the serial port (one S7S raw digit command), nothing else: no
 * state, no rendering. What it takes is what the harness and the kernel cost.
 *
 *     floor --save FILE DEVICE PORT
 *
 * also keeps its one piece of state, the number of presses, durably in FILE, as
 * scoreboardd keeps its state file: a thread of its own writes the newest number into
 * one of two 4 KiB slots in turn and flushes it (fdatasync), at once after a quiet
 * spell and otherwise SAVE_INTERVAL after the last write began (scoreboardd's
 * `StateStore.unansweredInterval`), so that a burst of keys costs 20 writes a second.
 * It is the least a program can do for the job with a state file.
 *
 *     floor --ticks PORT START PERIOD
 *
 * is a clock's floor: it writes one byte to the serial port at START, START + PERIOD,
 * START + 2 PERIOD and so on (nanoseconds on CLOCK_MONOTONIC), each on a kernel timer
 * set to that instant, until it is stopped. How late those bytes come is how late this
 * machine lets any clock's frame come.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/input.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
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

/* At most one write of the state file in this many nanoseconds after the last began. */
#define SAVE_INTERVAL 50000000
#define SLOT_SIZE 4096

/* The state the saving thread writes: the presses counted, and whether it changed. */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t state_changed = PTHREAD_COND_INITIALIZER;
static uint64_t presses;
static int unsaved;

static int64_t now_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/* The saving thread: waits for a change, holds it until SAVE_INTERVAL after the last
 * write began, then writes the newest count into the older slot and flushes it. */
static void *save_presses(void *argument)
{
    int file = *(int *)argument;
    static char slot[SLOT_SIZE];
    int64_t last_began = INT64_MIN / 2;
    off_t offset = 0;
    for (;;) {
        pthread_mutex_lock(&state_lock);
        while (!unsaved)
            pthread_cond_wait(&state_changed, &state_lock);
        pthread_mutex_unlock(&state_lock);
        int64_t due = last_began + SAVE_INTERVAL;
        if (now_ns() < due) {
            struct timespec until = {.tv_sec = due / 1000000000, .tv_nsec = due % 1000000000};
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR) {
            }
        }
        pthread_mutex_lock(&state_lock);
        uint64_t count = presses;
        unsaved = 0;
        pthread_mutex_unlock(&state_lock);
        last_began = now_ns();
        int length = snprintf(slot, sizeof slot, "presses %" PRIu64 "\n", count);
        memset(slot + length, 0, sizeof slot - (size_t)length);
        if (pwrite(file, slot, sizeof slot, offset) != (ssize_t)sizeof slot
            || fdatasync(file) != 0) {
            perror("save");
            exit(74);
        }
        offset = SLOT_SIZE - offset;
    }
    return NULL;
}

/* Opens the state file at its full size (two slots, flushed once) and starts the thread
 * that saves into it. */
static int start_saving(const char *path)
{
    static int file;
    file = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (file < 0) {
        perror("open");
        return 69;
    }
    static const char empty[2 * SLOT_SIZE];
    if (pwrite(file, empty, sizeof empty, 0) != (ssize_t)sizeof empty || fsync(file) != 0) {
        perror("save");
        return 74;
    }
    pthread_t thread;
    if (pthread_create(&thread, NULL, save_presses, &file) != 0) {
        fputs("pthread_create failed\n", stderr);
        return 71;
    }
    return 0;
}

static int answer_keys(const char *device_path, const char *port_path, int saves)
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
        if (saves) {
            pthread_mutex_lock(&state_lock);
            presses += 1;
            if (!unsaved) {
                unsaved = 1;
                pthread_cond_signal(&state_changed);
            }
            pthread_mutex_unlock(&state_lock);
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
        return answer_keys(argv[1], argv[2], 0);
    if (argc == 5 && strcmp(argv[1], "--save") == 0) {
        int failed = start_saving(argv[2]);
        return failed ? failed : answer_keys(argv[3], argv[4], 1);
    }
    if (argc == 5 && strcmp(argv[1], "--ticks") == 0)
        return tick(argv[2], strtoll(argv[3], NULL, 10), strtoll(argv[4], NULL, 10));
    fprintf(stderr,
            "usage: %s DEVICE PORT\n       %s --save FILE DEVICE PORT\n"
            "       %s --ticks PORT START PERIOD\n",
            argv[0], argv[0], argv[0]);
    return 64;
}
