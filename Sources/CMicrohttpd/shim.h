// libmicrohttpd (0.9.75 or later): only the C shim in CScoreboardWeb includes it, for
// the declarations; the shim loads the library itself (dlopen), so nothing links it.
#include <microhttpd.h>
