/* Host side of the hardware-in-the-loop tests: decodes what the guest's /dev/ttyS1
 * carried to a SparkFun Serial 7-Segment Display and checks it at checkpoints.
 *
 *   s7s-decode CAPTURE-FILE
 *
 * The module, from its datasheet: 0x76 clears the 4 digits and homes the cursor;
 * 0x7B-0x7E + byte set the raw segments of digit 1-4 (bit 0 = A ... bit 6 = G);
 * 0x77 + byte decimal points, 0x79 + byte cursor, 0x7A + byte brightness (0-100),
 * 0x7F/0x80/0x82 + byte baud rate, I2C address, mode; 0x81 factory reset; bytes
 * below 0x76 (and 0x78) are characters shown at the cursor, which advances.
 *
 * Checkpoints are not S7S: the guest writes 0xFF NAME '|' TEXT '\n' while the daemon
 * is idle (0xFF never appears in the daemon's bytes: every argument it sends is below
 * 0x80). At each, the 4 digits read as text are compared with TEXT and a line
 * "PASS NAME" or "FAIL NAME: ..." is printed. Exit status: 0 when every checkpoint
 * passed and the bytes broke no rule of the datasheet, 1 otherwise. */
#include <stdio.h>
#include <string.h>

static const unsigned char font[] = {0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07,
                                     0x7F, 0x6F, 0x77, 0x7C, 0x39, 0x5E, 0x79, 0x71};
static const char font_chars[] = "0123456789AbCdEF";

static char read_segments(unsigned char segments) {
    if (segments == 0) return ' ';
    if (segments == 0x40) return '-';
    for (int i = 0; i < 16; i++)
        if (font[i] == segments) return font_chars[i];
    return '?';
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: s7s-decode CAPTURE-FILE\n");
        return 64;
    }
    FILE *in = fopen(argv[1], "rb");
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    unsigned char digits[4] = {0x7F, 0x7F, 0x7F, 0x7F};
    int cursor = 0, command = -1, c, failures = 0, violations = 0, checkpoints = 0;
    long offset = -1;
    while ((c = fgetc(in)) != EOF) {
        offset++;
        if (command >= 0) {
            if (command >= 0x7B && command <= 0x7E) {
                if (c & 0x80) violations++, printf("VIOLATION at byte %ld: segments 0x%02X\n", offset, c);
                digits[command - 0x7B] = (unsigned char)(c & 0x7F);
            } else if (command == 0x79) {
                if (c < 4) cursor = c;
                else violations++, printf("VIOLATION at byte %ld: cursor %d\n", offset, c);
            } else if (command == 0x7A && c > 100) {
                violations++, printf("VIOLATION at byte %ld: brightness %d\n", offset, c);
            } else if (command == 0x77 && (c & 0xC0)) {
                violations++, printf("VIOLATION at byte %ld: points 0x%02X\n", offset, c);
            }
            command = -1;
        } else if (c == 0xFF) {
            char line[256];
            if (!fgets(line, sizeof line, in)) break;
            offset += (long)strlen(line);
            line[strcspn(line, "\n")] = 0;
            char *bar = strchr(line, '|');
            const char *expected = bar ? bar + 1 : "";
            if (bar) *bar = 0;
            char shown[5];
            for (int i = 0; i < 4; i++) shown[i] = read_segments(digits[i]);
            shown[4] = 0;
            checkpoints++;
            if (!strcmp(shown, expected)) {
                printf("PASS %s\n", line);
            } else {
                printf("FAIL %s: the S7S shows \"%s\", expected \"%s\" (segments %02X %02X %02X %02X)\n",
                       line, shown, expected, digits[0], digits[1], digits[2], digits[3]);
                failures++;
            }
        } else if (c == 0x76) {
            memset(digits, 0, sizeof digits);
            cursor = 0;
        } else if (c == 0x77 || c == 0x79 || c == 0x7A || (c >= 0x7B && c <= 0x7E) || c == 0x7F ||
                   c == 0x80 || c == 0x82) {
            command = c;
        } else if (c == 0x81) {
            /* factory reset: EEPROM only */
        } else if (c < 0x76 || c == 0x78) {
            unsigned char segments = 0;
            if (c < 0x10) segments = font[c];
            else if (c >= '0' && c <= '9') segments = font[c - '0'];
            else if (c >= 'A' && c <= 'F') segments = font[c - 'A' + 10];
            else if (c >= 'a' && c <= 'f') segments = font[c - 'a' + 10];
            else if (c != 'x') segments = 0x49; /* no glyph: reads as '?' */
            digits[cursor] = segments;
            cursor = (cursor + 1) % 4;
        } else {
            violations++;
            printf("VIOLATION at byte %ld: undefined byte 0x%02X\n", offset, c);
        }
    }
    fclose(in);
    printf("s7s-decode: %ld bytes, %d checkpoints, %d failed, %d violations\n", offset + 1,
           checkpoints, failures, violations);
    return failures || violations ? 1 : 0;
}
