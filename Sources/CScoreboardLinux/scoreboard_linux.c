#include "scoreboard_linux.h"
int sbl_placeholder(void) { return 0; }
