/*
 * The floor of the benchmarks: the least a program can do for the job. It reads
 * input_event records from the keypad device and answers every key press with the
 * same two bytes on the serial port (one S7S raw digit command), nothing else: no
 * state, no rendering. What it takes is what the harness and the kernel cost.
 *
 *     floor DEVICE PORT
 */
#include <fcntl.h>
#include <linux/input.h>
#include <stdio.h>
#include <termios.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s DEVICE PORT\n", argv[0]);
        return 64;
    }
    int device = open(argv[1], O_RDONLY | O_CLOEXEC);
    int port = open(argv[2], O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (device < 0 || port < 0) {
        perror("open");
        return 69;
    }
    struct termios settings;
    if (tcgetattr(port, &settings) == 0) {
        cfmakeraw(&settings);
        cfsetspeed(&settings, B1000000);
        tcsetattr(port, TCSANOW, &settings);
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
