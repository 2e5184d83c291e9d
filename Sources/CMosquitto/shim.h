// libmosquitto (2.0 or later): only the C shim in CScoreboardMQTT includes it, for
// the declarations; the shim loads the library itself (dlopen), so nothing links it.
#include <mosquitto.h>
#include <mqtt_protocol.h>
