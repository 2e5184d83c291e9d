#ifndef SCOREBOARD_LINUX_H
#define SCOREBOARD_LINUX_H
int sbl_placeholder(void);
#endif
