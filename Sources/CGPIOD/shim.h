// libgpiod, v1 (1.6) or v2 (2.x): whichever pkg-config's libgpiod.pc points at.
// Only the C shim in CScoreboardLinux includes it.
#include <gpiod.h>
