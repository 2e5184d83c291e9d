#ifndef SCOREBOARD_LINUX_H
#define SCOREBOARD_LINUX_H

// Linux interfaces that Swift's Glibc module does not import: functions that need
// _GNU_SOURCE or _XOPEN_SOURCE, <sys/signalfd.h>, <sys/epoll.h> and the Unix-domain
// socket address. Every function returns -1 and sets errno on failure, like the system
// calls it wraps.

#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/// Writes the message of `error_number` (strerror_r) into `buffer` and returns it.
const char *sbl_error_message(int error_number, char *buffer, size_t size);

/// pipe2(descriptors, O_CLOEXEC): descriptors[0] is the read end, [1] the write end.
int sbl_pipe(int descriptors[2]);

/// sched_getcpu(): the processor the calling thread runs on. Returns its number.
int sbl_current_processor(void);

/// Names the calling thread `name` (at most 15 bytes: what `top -H` and
/// /proc/PID/task/TID/comm show) and makes it alone `increment` steps nicer (setpriority
/// with its thread id), so that the thread that serves keys and displays comes first.
/// Returns 0.
int sbl_become_background_thread(const char *name, int increment);

/// A non-blocking, close-on-exec signalfd that receives `signals` (which the caller
/// must block first). Returns the descriptor.
int sbl_signalfd(const sigset_t *signals);

/// Reads one signalfd_siginfo record from `descriptor` and stores its signal number, its
/// code (SI_USER from kill, SI_KERNEL from the kernel, as a terminal's hang-up) and the
/// sender's process ID. Returns 0, or -1 with errno (EAGAIN when no signal is pending).
int sbl_signalfd_read(int descriptor, int *signal_number, int *code, pid_t *sender);

/// Opens a pseudo-terminal master (posix_openpt with O_RDWR | O_NOCTTY | O_CLOEXEC),
/// grants and unlocks its slave, and writes the slave's path into `slave_path`.
/// Returns the master descriptor.
int sbl_open_pseudo_terminal(char *slave_path, size_t size);

/// ppoll(entries, count, timeout, NULL): waits until one of `entries` is ready or
/// `timeout` (nanosecond resolution; NULL: no limit) has passed, with the signal mask
/// as it is. Returns the number of ready entries, 0 when the timeout passed.
int sbl_ppoll(struct pollfd *entries, size_t count, const struct timespec *timeout);

/// A close-on-exec epoll instance. Returns its descriptor.
int sbl_epoll_create(void);

/// epoll_ctl on `poller`: `operation` 0 adds `descriptor`, 1 changes its watch, 2 removes
/// it. `events` are poll(2) bits (POLLIN, POLLOUT; hang-ups and errors always come, as
/// with poll), level-triggered; `key` comes back with each of its events. Returns 0.
int sbl_epoll_control(
    int poller, int operation, int descriptor, unsigned int events, unsigned long long key);

/// Waits until a descriptor of `poller` is ready or `timeout` (nanosecond resolution;
/// NULL: no limit) has passed, with the signal mask as it is, and writes the keys and
/// poll(2) events of up to `capacity` (at most 64) ready descriptors. Returns how many,
/// 0 when the timeout passed. Uses epoll_pwait2 (Linux 5.11); on an older kernel,
/// epoll_wait with the timeout rounded up to a whole millisecond.
int sbl_epoll_wait(
    int poller, unsigned long long *keys, unsigned int *events, int capacity,
    const struct timespec *timeout);

/// A non-blocking, close-on-exec timerfd on CLOCK_MONOTONIC. Returns the descriptor.
int sbl_timer_create(void);

/// Arms the timerfd `descriptor` to expire once at `deadline`, nanoseconds on
/// CLOCK_MONOTONIC (TFD_TIMER_ABSTIME), or disarms it when `deadline` is 0. Either way
/// expirations not yet read are forgotten. Returns 0.
int sbl_timer_arm(int descriptor, long long deadline);

/// Sets the calling thread's timer slack (PR_SET_TIMERSLACK) to `nanoseconds`: how late
/// the kernel may end its sleeps and waits to group wakeups. Returns 0.
int sbl_set_timer_slack(unsigned long nanoseconds);

/// A new epoll descriptor (close-on-exec) that polls readable while any of `descriptors`
/// does, such as the edge-event descriptors of GPIO requests on several chips. The
/// caller owns it; closing it leaves `descriptors` open.
int sbl_epoll_watching(const int *descriptors, size_t count);

/// A non-blocking, close-on-exec Unix-domain stream socket (AF_UNIX, SOCK_STREAM).
/// Returns the descriptor.
int sbl_unix_socket(void);

/// Binds `descriptor` to the socket file `path` (bind). Returns 0, or -1 with errno
/// (ENAMETOOLONG when the path does not fit in a sockaddr_un).
int sbl_unix_bind(int descriptor, const char *path);

/// Connects `descriptor` to the socket file `path` (connect). Returns 0, or -1 with
/// errno (ENAMETOOLONG when the path does not fit in a sockaddr_un).
int sbl_unix_connect(int descriptor, const char *path);

/// Accepts a connection on the listening `descriptor` (accept4 with SOCK_NONBLOCK and
/// SOCK_CLOEXEC). Returns the connection's descriptor.
int sbl_unix_accept(int descriptor);

/// Renames `from` to `to` in the folder open at `folder` (or AT_FDCWD) unless `to`
/// exists: renameat2 with RENAME_NOREPLACE, which fails with EEXIST instead of replacing.
int sbl_rename_no_replace(int folder, const char *from, const char *to);

/// Reads the next entries of the folder open at `descriptor` into `buffer`
/// (getdents64). Returns the number of bytes filled, 0 at the end, or -1 with errno.
int sbl_read_folder_entries(int descriptor, void *buffer, size_t size);

/// The length in bytes of the folder entry at `entry`, within a getdents64 buffer.
unsigned short sbl_folder_entry_length(const void *entry);

/// The NUL-terminated name of the folder entry at `entry`.
const char *sbl_folder_entry_name(const void *entry);

/// Fills `buffer` with `count` random bytes from the kernel (getrandom). Returns the
/// number of bytes filled, or -1 with errno.
long sbl_random_bytes(void *buffer, size_t count);

#endif
