#ifndef SCOREBOARD_I2C_H
#define SCOREBOARD_I2C_H

// I2C buses through i2c-dev (/dev/i2c-N). The request numbers and `struct
// i2c_smbus_ioctl_data` come from the kernel's headers here, so that Swift needs no
// constants or layouts of its own. Functions that fail return -1 and set errno, like the
// ioctls they wrap.

#include <stdint.h>

/// Addresses the chip at the 7-bit `address` in the transfers that follow (I2C_SLAVE).
/// Fails with EBUSY when a kernel driver has bound that address.
int sbl_i2c_set_address(int descriptor, int address);

/// The adapter's functionality bits (I2C_FUNCS) into `functionality`.
int sbl_i2c_functionality(int descriptor, unsigned long *functionality);

/// Whether `functionality` has SMBus send-byte (I2C_FUNC_SMBUS_WRITE_BYTE).
int sbl_i2c_can_send_byte(unsigned long functionality);

/// Whether `functionality` has SMBus I2C-block writes (I2C_FUNC_SMBUS_WRITE_I2C_BLOCK).
int sbl_i2c_can_write_block(unsigned long functionality);

/// An SMBus send-byte: `value` alone (I2C_SMBUS with I2C_SMBUS_BYTE).
int sbl_i2c_send_byte(int descriptor, uint8_t value);

/// An SMBus I2C-block write: `command`, then `length` bytes (at most 32, I2C_SMBUS_BLOCK_MAX),
/// without a count byte (I2C_SMBUS with I2C_SMBUS_I2C_BLOCK_DATA).
int sbl_i2c_write_block(int descriptor, uint8_t command, const uint8_t *bytes, int length);

#endif
