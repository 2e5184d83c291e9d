#include "scoreboard_i2c.h"

#include <errno.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <string.h>
#include <sys/ioctl.h>

int sbl_i2c_set_address(int descriptor, int address) {
  return ioctl(descriptor, I2C_SLAVE, (unsigned long)address);
}

int sbl_i2c_functionality(int descriptor, unsigned long *functionality) {
  return ioctl(descriptor, I2C_FUNCS, functionality);
}

int sbl_i2c_can_send_byte(unsigned long functionality) {
  return (functionality & I2C_FUNC_SMBUS_WRITE_BYTE) != 0;
}

int sbl_i2c_can_write_block(unsigned long functionality) {
  return (functionality & I2C_FUNC_SMBUS_WRITE_I2C_BLOCK) != 0;
}

static int smbus(int descriptor, uint8_t read_write, uint8_t command, uint32_t size,
                 union i2c_smbus_data *data) {
  struct i2c_smbus_ioctl_data request = {
      .read_write = read_write, .command = command, .size = size, .data = data};
  return ioctl(descriptor, I2C_SMBUS, &request);
}

int sbl_i2c_send_byte(int descriptor, uint8_t value) {
  return smbus(descriptor, I2C_SMBUS_WRITE, value, I2C_SMBUS_BYTE, NULL);
}

int sbl_i2c_write_block(int descriptor, uint8_t command, const uint8_t *bytes, int length) {
  if (length < 0 || length > I2C_SMBUS_BLOCK_MAX) {
    errno = EINVAL;
    return -1;
  }
  union i2c_smbus_data data;
  data.block[0] = (uint8_t)length;
  if (length > 0) {
    memcpy(&data.block[1], bytes, (size_t)length);
  }
  return smbus(descriptor, I2C_SMBUS_WRITE, command, I2C_SMBUS_I2C_BLOCK_DATA, &data);
}
