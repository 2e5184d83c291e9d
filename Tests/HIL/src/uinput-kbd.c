/* A USB numeric keypad made with uinput, for the guest of the hardware-in-the-loop
 * tests. Commands come one per line on standard input; each is answered with one
 * line on standard output:
 *
 *   create NAME...     create the keypad (bus USB), answer "created /dev/input/eventN"
 *   type KEY...        press and release each key (KEY_KP1, KEY_KPENTER...), "typed N"
 *   destroy            destroy the keypad, as when it is unplugged, "destroyed"
 *
 * End of input destroys the keypad and exits. Static build, no dependencies. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static const struct {
    const char *name;
    int code;
} keys[] = {
    {"KEY_KP0", KEY_KP0},         {"KEY_KP1", KEY_KP1},         {"KEY_KP2", KEY_KP2},
    {"KEY_KP3", KEY_KP3},         {"KEY_KP4", KEY_KP4},         {"KEY_KP5", KEY_KP5},
    {"KEY_KP6", KEY_KP6},         {"KEY_KP7", KEY_KP7},         {"KEY_KP8", KEY_KP8},
    {"KEY_KP9", KEY_KP9},         {"KEY_KPENTER", KEY_KPENTER}, {"KEY_KPDOT", KEY_KPDOT},
    {"KEY_KPPLUS", KEY_KPPLUS},   {"KEY_KPMINUS", KEY_KPMINUS}, {"KEY_KPSLASH", KEY_KPSLASH},
    {"KEY_KPASTERISK", KEY_KPASTERISK}, {"KEY_NUMLOCK", KEY_NUMLOCK},
};
#define KEY_COUNT (sizeof keys / sizeof keys[0])

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) < 0 && errno == EINTR) {
    }
}

static int emit(int fd, int type, int code, int value) {
    struct input_event event;
    memset(&event, 0, sizeof event);
    event.type = (unsigned short)type;
    event.code = (unsigned short)code;
    event.value = value;
    return write(fd, &event, sizeof event) == (ssize_t)sizeof event ? 0 : -1;
}

static int create(const char *name) {
    int fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (fd < 0) {
        printf("error open /dev/uinput: %s\n", strerror(errno));
        return -1;
    }
    ioctl(fd, UI_SET_EVBIT, EV_KEY);
    ioctl(fd, UI_SET_EVBIT, EV_LED);
    ioctl(fd, UI_SET_LEDBIT, LED_NUML);
    for (size_t i = 0; i < KEY_COUNT; i++) ioctl(fd, UI_SET_KEYBIT, keys[i].code);
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_USB;
    setup.id.vendor = 0x1c4f;
    setup.id.product = 0x0002;
    snprintf(setup.name, sizeof setup.name, "%.*s", (int)sizeof setup.name - 1, name);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) {
        printf("error uinput setup: %s\n", strerror(errno));
        close(fd);
        return -1;
    }
    char sysname[64] = "", event[32] = "?";
    if (ioctl(fd, UI_GET_SYSNAME(sizeof sysname), sysname) >= 0) {
        char path[160];
        snprintf(path, sizeof path, "/sys/devices/virtual/input/%s", sysname);
        DIR *dir = opendir(path);
        struct dirent *entry;
        while (dir && (entry = readdir(dir)))
            if (!strncmp(entry->d_name, "event", 5)) snprintf(event, sizeof event, "%.*s", (int)sizeof event - 1, entry->d_name);
        if (dir) closedir(dir);
    }
    printf("created /dev/input/%s\n", event);
    return fd;
}

int main(void) {
    char line[512];
    int fd = -1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!strncmp(line, "create ", 7)) {
            if (fd >= 0) {
                printf("error already created\n");
                continue;
            }
            fd = create(line + 7);
        } else if (!strncmp(line, "type ", 5)) {
            int typed = 0;
            for (char *word = strtok(line + 5, " "); word; word = strtok(NULL, " ")) {
                size_t i = 0;
                while (i < KEY_COUNT && strcmp(keys[i].name, word)) i++;
                if (i == KEY_COUNT || fd < 0) break;
                emit(fd, EV_KEY, keys[i].code, 1);
                emit(fd, EV_SYN, SYN_REPORT, 0);
                /* A finger holds the key 40 ms and lifts it 60 ms before the next one: the
                 * typing of the scenario, not a wait for the daemon. */
                sleep_ms(40);
                emit(fd, EV_KEY, keys[i].code, 0);
                emit(fd, EV_SYN, SYN_REPORT, 0);
                sleep_ms(60);
                typed++;
            }
            printf("typed %d\n", typed);
        } else if (!strcmp(line, "destroy")) {
            if (fd >= 0) {
                ioctl(fd, UI_DEV_DESTROY);
                close(fd);
                fd = -1;
            }
            printf("destroyed\n");
        } else {
            printf("error unknown command '%s'\n", line);
        }
    }
    if (fd >= 0) {
        ioctl(fd, UI_DEV_DESTROY);
        close(fd);
    }
    return 0;
}
