// libmosquitto (2.0 or later): only the C shim in CScoreboardMQTT includes it.
#include <mosquitto.h>
#include <mqtt_protocol.h>
