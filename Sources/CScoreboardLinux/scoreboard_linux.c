#define _GNU_SOURCE
#include "scoreboard_linux.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <unistd.h>

const char *sbl_error_message(int error_number, char *buffer, size_t size) {
  // The GNU strerror_r returns the message, which may or may not be in `buffer`.
  return strerror_r(error_number, buffer, size);
}

int sbl_pipe(int descriptors[2]) { return pipe2(descriptors, O_CLOEXEC); }

int sbl_current_processor(void) { return sched_getcpu(); }

int sbl_ppoll(struct pollfd *entries, size_t count, const struct timespec *timeout) {
  return ppoll(entries, (nfds_t)count, timeout, NULL);
}

int sbl_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int sbl_epoll_control(
    int poller, int operation, int descriptor, unsigned int events, unsigned long long key) {
  static const int operations[] = {EPOLL_CTL_ADD, EPOLL_CTL_MOD, EPOLL_CTL_DEL};
  if (operation < 0 || operation > 2) {
    errno = EINVAL;
    return -1;
  }
  // poll(2)'s bits and epoll's have the same values on Linux.
  struct epoll_event event = {.events = events & (EPOLLIN | EPOLLPRI | EPOLLOUT), .data.u64 = key};
  return epoll_ctl(poller, operations[operation], descriptor, &event);
}

int sbl_epoll_wait(
    int poller, unsigned long long *keys, unsigned int *events, int capacity,
    const struct timespec *timeout) {
  static atomic_int lacks_pwait2;
  struct epoll_event ready[64];
  if (capacity > 64) {
    capacity = 64;
  }
  int count = -1;
  if (!lacks_pwait2) {
    count = epoll_pwait2(poller, ready, capacity, timeout, NULL);
    if (count == -1 && errno == ENOSYS) {
      lacks_pwait2 = 1;
    }
  }
  if (lacks_pwait2) {
    int milliseconds = -1;
    if (timeout != NULL) {
      long long rounded = (long long)timeout->tv_sec * 1000 + (timeout->tv_nsec + 999999) / 1000000;
      milliseconds = rounded > INT_MAX ? INT_MAX : (int)rounded;
    }
    count = epoll_wait(poller, ready, capacity, milliseconds);
  }
  for (int i = 0; i < count; i++) {
    keys[i] = ready[i].data.u64;
    events[i] = ready[i].events;
  }
  return count;
}

int sbl_timer_create(void) {
  return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
}

int sbl_timer_arm(int descriptor, long long deadline) {
  struct itimerspec setting = {
      .it_interval = {0, 0},
      .it_value = {(time_t)(deadline / 1000000000LL), (long)(deadline % 1000000000LL)},
  };
  return timerfd_settime(descriptor, deadline == 0 ? 0 : TFD_TIMER_ABSTIME, &setting, NULL);
}

int sbl_set_timer_slack(unsigned long nanoseconds) {
  return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}

int sbl_become_background_thread(const char *name, int increment) {
  (void)pthread_setname_np(pthread_self(), name);
  id_t thread = (id_t)gettid();
  errno = 0;
  int nice = getpriority(PRIO_PROCESS, thread);
  if (nice == -1 && errno != 0) return -1;
  return setpriority(PRIO_PROCESS, thread, nice + increment);
}

int sbl_signalfd(const sigset_t *signals) {
  return signalfd(-1, signals, SFD_NONBLOCK | SFD_CLOEXEC);
}

int sbl_signalfd_read(int descriptor, int *signal_number, int *code, pid_t *sender) {
  struct signalfd_siginfo info;
  ssize_t count = read(descriptor, &info, sizeof info);
  if (count == -1) {
    return -1;
  }
  if (count != (ssize_t)sizeof info) {
    errno = EIO;
    return -1;
  }
  *signal_number = (int)info.ssi_signo;
  *code = info.ssi_code;
  *sender = (pid_t)info.ssi_pid;
  return 0;
}

int sbl_open_pseudo_terminal(char *slave_path, size_t size) {
  int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master == -1) {
    return -1;
  }
  int error = 0;
  if (grantpt(master) == -1 || unlockpt(master) == -1) {
    error = errno;
  } else {
    error = ptsname_r(master, slave_path, size);
  }
  if (error != 0) {
    close(master);
    errno = error;
    return -1;
  }
  return master;
}

int sbl_epoll_watching(const int *descriptors, size_t count) {
  int epoll = epoll_create1(EPOLL_CLOEXEC);
  if (epoll == -1) {
    return -1;
  }
  for (size_t i = 0; i < count; i++) {
    struct epoll_event event = {.events = EPOLLIN, .data.fd = descriptors[i]};
    if (epoll_ctl(epoll, EPOLL_CTL_ADD, descriptors[i], &event) == -1) {
      int error = errno;
      close(epoll);
      errno = error;
      return -1;
    }
  }
  return epoll;
}

int sbl_unix_socket(void) {
  return socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

// Fills `address` with `path`; -1 with ENAMETOOLONG when the path (and its NUL) does not
// fit.
static int sbl_unix_address(struct sockaddr_un *address, const char *path) {
  size_t length = strlen(path);
  if (length >= sizeof address->sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memset(address, 0, sizeof *address);
  address->sun_family = AF_UNIX;
  memcpy(address->sun_path, path, length + 1);
  return 0;
}

int sbl_unix_bind(int descriptor, const char *path) {
  struct sockaddr_un address;
  if (sbl_unix_address(&address, path) == -1) {
    return -1;
  }
  return bind(descriptor, (const struct sockaddr *)&address, sizeof address);
}

int sbl_unix_connect(int descriptor, const char *path) {
  struct sockaddr_un address;
  if (sbl_unix_address(&address, path) == -1) {
    return -1;
  }
  return connect(descriptor, (const struct sockaddr *)&address, sizeof address);
}

int sbl_unix_accept(int descriptor) {
  return accept4(descriptor, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int sbl_rename_no_replace(int folder, const char *from, const char *to) {
  return renameat2(folder, from, folder, to, RENAME_NOREPLACE);
}

int sbl_read_folder_entries(int descriptor, void *buffer, size_t size) {
  ssize_t count = getdents64(descriptor, buffer, size);
  return count > INT_MAX ? INT_MAX : (int)count;
}

unsigned short sbl_folder_entry_length(const void *entry) {
  return ((const struct dirent64 *)entry)->d_reclen;
}

const char *sbl_folder_entry_name(const void *entry) {
  return ((const struct dirent64 *)entry)->d_name;
}

long sbl_random_bytes(void *buffer, size_t count) { return (long)getrandom(buffer, count, 0); }
