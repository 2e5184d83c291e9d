#include "scoreboard_mqtt.h"
