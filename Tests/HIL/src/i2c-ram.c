/* Reads, or writes, the display RAM of an HT16K33 on an I2C bus, for the guest of the
 * hardware-in-the-loop tests, where i2c-stub stands in for the chips:
 *
 *   i2c-ram /dev/i2c-0 0x70                prints RAM bytes 0x00..0x0F: "3f 00 06 ..."
 *   i2c-ram /dev/i2c-0 0x70 0x3f 0x06 ...  writes the bytes from RAM address 0x00
 *
 * It reads each byte with an SMBus read-byte-data, and writes with one SMBus I2C-block
 * write at command 0x00: transfers that i2c-stub implements (it has no plain I2C) and
 * a real HT16K33 answers too. The bus is opened, used and closed at once, so that
 * i2c-dev holds no reference on i2c-stub afterwards. */
#include <errno.h>
#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

enum { ram_size = 16 };

static long number(const char *text, long max) {
    char *end;
    errno = 0;
    long value = strtol(text, &end, 0);
    if (errno || *end || end == text || value < 0 || value > max) {
        fprintf(stderr, "i2c-ram: '%s' is not a number from 0 to %ld\n", text, max);
        exit(64);
    }
    return value;
}

static int smbus(int fd, char direction, int command, int size, union i2c_smbus_data *data) {
    struct i2c_smbus_ioctl_data request = {
        .read_write = direction, .command = (unsigned char)command, .size = size, .data = data};
    return ioctl(fd, I2C_SMBUS, &request);
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 3 + I2C_SMBUS_BLOCK_MAX) {
        fprintf(stderr, "usage: i2c-ram DEVICE ADDRESS [BYTE...]\n");
        return 64;
    }
    long address = number(argv[2], 0x7f);
    int fd = open(argv[1], O_RDWR);
    if (fd < 0) {
        fprintf(stderr, "i2c-ram: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    if (ioctl(fd, I2C_SLAVE, address) < 0) {
        fprintf(stderr, "i2c-ram: I2C_SLAVE 0x%02lx: %s\n", address, strerror(errno));
        return 1;
    }
    union i2c_smbus_data data;
    if (argc > 3) {
        data.block[0] = (unsigned char)(argc - 3);
        for (int i = 3; i < argc; i++) data.block[i - 2] = (unsigned char)number(argv[i], 0xff);
        if (smbus(fd, I2C_SMBUS_WRITE, 0, I2C_SMBUS_I2C_BLOCK_DATA, &data) < 0) {
            fprintf(stderr, "i2c-ram: block write at 0x%02lx: %s\n", address, strerror(errno));
            return 1;
        }
    } else {
        for (int cell = 0; cell < ram_size; cell++) {
            if (smbus(fd, I2C_SMBUS_READ, cell, I2C_SMBUS_BYTE_DATA, &data) < 0) {
                fprintf(stderr, "i2c-ram: read 0x%02lx byte 0x%02x: %s\n", address, cell,
                        strerror(errno));
                return 1;
            }
            printf("%s%02x", cell ? " " : "", data.byte);
        }
        printf("\n");
    }
    close(fd);
    return 0;
}
