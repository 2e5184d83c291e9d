import CScoreboardLinux
@preconcurrency import Glibc

/// Every system call LinuxIO makes, in one place: the seam where tests see which calls
/// were made, in which order, and make any of them fail (`SystemCallTrace`).
///
/// Each function has the C call's name and arguments and returns what it returns, with
/// `errno` set on failure; callers wrap them in `retryOnInterrupt`. In debug builds
/// (`SYSTEM_CALL_TRACE`), a call made inside `SystemCallTrace.record(_:)` is recorded
/// and may be failed with an injected error instead of being made. Release builds call
/// straight through. libgpiod's own calls, behind the GPIO shim, are the library's
/// business and not listed here.
enum SystemCall {
  /// Records the call and returns the injected failure (-1 with `errno` set) when the
  /// current trace asks for one; otherwise makes the call.
  @inline(__always)
  private static func call<Result: FixedWidthInteger & SignedInteger>(
    _ name: StaticString, descriptor: CInt? = nil, paths: @autoclosure () -> [String] = [],
    _ body: () -> Result
  ) -> Result {
    #if SYSTEM_CALL_TRACE
      if let trace = SystemCallTrace.current,
        let error = trace.intercept(
          SystemCallTrace.Call(name: "\(name)", descriptor: descriptor, paths: paths()))
      {
        Glibc.errno = error.rawValue
        return -1
      }
    #endif
    return body()
  }

  // MARK: - Files

  static func open(_ path: String, _ flags: CInt, _ mode: mode_t) -> CInt {
    call("open", paths: [path]) { Glibc.open(path, flags, mode) }
  }

  static func openat(_ folder: CInt, _ path: String, _ flags: CInt, _ mode: mode_t) -> CInt {
    call("openat", descriptor: folder, paths: [path]) { Glibc.openat(folder, path, flags, mode) }
  }

  static func read(_ descriptor: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    call("read", descriptor: descriptor) { Glibc.read(descriptor, buffer, count) }
  }

  static func write(_ descriptor: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    call("write", descriptor: descriptor) { Glibc.write(descriptor, buffer, count) }
  }

  static func close(_ descriptor: CInt) -> CInt {
    call("close", descriptor: descriptor) { Glibc.close(descriptor) }
  }

  static func fsync(_ descriptor: CInt) -> CInt {
    call("fsync", descriptor: descriptor) { Glibc.fsync(descriptor) }
  }

  static func pwrite(
    _ descriptor: CInt, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: off_t
  ) -> Int {
    call("pwrite", descriptor: descriptor) { Glibc.pwrite(descriptor, buffer, count, offset) }
  }

  static func fdatasync(_ descriptor: CInt) -> CInt {
    call("fdatasync", descriptor: descriptor) { Glibc.fdatasync(descriptor) }
  }

  static func fstat(_ descriptor: CInt, _ status: inout stat) -> CInt {
    call("fstat", descriptor: descriptor) { Glibc.fstat(descriptor, &status) }
  }

  /// `fstatat` following links (`stat`).
  static func statat(_ folder: CInt, _ path: String, _ status: inout stat) -> CInt {
    call("statat", descriptor: folder, paths: [path]) { Glibc.fstatat(folder, path, &status, 0) }
  }

  /// `fstatat` with `AT_SYMLINK_NOFOLLOW`: the status of a link itself (`lstat`).
  static func lstatat(_ folder: CInt, _ path: String, _ status: inout stat) -> CInt {
    call("lstatat", descriptor: folder, paths: [path]) {
      Glibc.fstatat(folder, path, &status, AT_SYMLINK_NOFOLLOW)
    }
  }

  static func fcntl(_ descriptor: CInt, _ command: CInt) -> CInt {
    call("fcntl", descriptor: descriptor) { Glibc.fcntl(descriptor, command) }
  }

  static func fcntl(_ descriptor: CInt, _ command: CInt, _ value: CInt) -> CInt {
    call("fcntl", descriptor: descriptor) { Glibc.fcntl(descriptor, command, value) }
  }

  static func renameat(_ folder: CInt, _ from: String, _ toFolder: CInt, _ to: String) -> CInt {
    call("renameat", descriptor: folder, paths: [from, to]) {
      Glibc.renameat(folder, from, toFolder, to)
    }
  }

  /// `renameat2` with `RENAME_NOREPLACE`: fails with `EEXIST` instead of replacing.
  static func renameNoReplace(_ folder: CInt, _ from: String, _ to: String) -> CInt {
    call("renameat2", descriptor: folder, paths: [from, to]) {
      sbl_rename_no_replace(folder, from, to)
    }
  }

  static func unlink(_ path: String) -> CInt {
    call("unlink", paths: [path]) { Glibc.unlink(path) }
  }

  static func unlinkat(_ folder: CInt, _ path: String, _ flags: CInt) -> CInt {
    call("unlinkat", descriptor: folder, paths: [path]) { Glibc.unlinkat(folder, path, flags) }
  }

  static func mkdir(_ path: String, _ mode: mode_t) -> CInt {
    call("mkdir", paths: [path]) { Glibc.mkdir(path, mode) }
  }

  static func chmod(_ path: String, _ mode: mode_t) -> CInt {
    call("chmod", paths: [path]) { Glibc.chmod(path, mode) }
  }

  static func readlink(_ path: String, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int {
    call("readlink", paths: [path]) { Glibc.readlink(path, buffer, size) }
  }

  /// The names in the folder open at `descriptor` (`getdents64`), `.` and `..` left out;
  /// nil with `errno` set when it cannot be read.
  static func folderEntries(_ descriptor: CInt) -> [String]? {
    let result: CInt = call("getdents64", descriptor: descriptor) { 0 }
    guard result == 0 else { return nil }
    var names: [String] = []
    let status = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer in
      while true {
        let count = sbl_read_folder_entries(descriptor, buffer.baseAddress, buffer.count)
        guard count > 0 else { return count }
        var offset = 0
        while offset < count {
          let entry = buffer.baseAddress! + offset
          offset += Int(sbl_folder_entry_length(entry))
          let name = String(cString: sbl_folder_entry_name(entry))
          if name != "." && name != ".." {
            names.append(name)
          }
        }
      }
    }
    return status == 0 ? names : nil
  }

  static func glob(_ pattern: String, _ matches: inout glob_t) -> CInt {
    call("glob", paths: [pattern]) { Glibc.glob(pattern, 0, nil, &matches) }
  }

  /// The absolute path with every link followed; nil with `errno` set.
  static func realpath(_ path: String) -> String? {
    let result: CInt = call("realpath", paths: [path]) { 0 }
    guard result == 0, let resolved = Glibc.realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  // MARK: - Terminals and devices

  static func ioctl(_ descriptor: CInt, _ request: UInt) -> CInt {
    call("ioctl", descriptor: descriptor) { Glibc.ioctl(descriptor, request) }
  }

  static func ioctl(_ descriptor: CInt, _ request: UInt, _ argument: UnsafeMutableRawPointer)
    -> CInt
  {
    call("ioctl", descriptor: descriptor) { Glibc.ioctl(descriptor, request, argument) }
  }

  static func isatty(_ descriptor: CInt) -> Bool {
    let result: CInt = call("isatty", descriptor: descriptor) { Glibc.isatty(descriptor) }
    return result == 1
  }

  static func tcgetattr(_ descriptor: CInt, _ attributes: inout termios) -> CInt {
    call("tcgetattr", descriptor: descriptor) { Glibc.tcgetattr(descriptor, &attributes) }
  }

  static func tcsetattr(_ descriptor: CInt, _ action: CInt, _ attributes: inout termios) -> CInt {
    call("tcsetattr", descriptor: descriptor) {
      Glibc.tcsetattr(descriptor, action, &attributes)
    }
  }

  static func tcflush(_ descriptor: CInt, _ queue: CInt) -> CInt {
    call("tcflush", descriptor: descriptor) { Glibc.tcflush(descriptor, queue) }
  }

  static func openPseudoTerminal(_ slavePath: UnsafeMutablePointer<CChar>?, _ size: Int) -> CInt {
    call("posix_openpt") { sbl_open_pseudo_terminal(slavePath, size) }
  }

  static func evdevGrab(_ descriptor: CInt, _ grab: Bool) -> CInt {
    call("ioctl EVIOCGRAB", descriptor: descriptor) { sbl_evdev_grab(descriptor, grab ? 1 : 0) }
  }

  static func evdevName(_ descriptor: CInt, _ name: UnsafeMutablePointer<CChar>?, _ size: Int)
    -> CInt
  {
    call("ioctl EVIOCGNAME", descriptor: descriptor) { sbl_evdev_name(descriptor, name, size) }
  }

  static func evdevPressedKeys(
    _ descriptor: CInt, _ codes: UnsafeMutablePointer<UInt16>?, _ capacity: Int
  ) -> CInt {
    call("ioctl EVIOCGKEY", descriptor: descriptor) {
      sbl_evdev_pressed_keys(descriptor, codes, capacity)
    }
  }

  static func evdevSetClock(_ descriptor: CInt, _ clock: CInt) -> CInt {
    call("ioctl EVIOCSCLOCKID", descriptor: descriptor) { sbl_evdev_set_clock(descriptor, clock) }
  }

  // MARK: - I2C

  static func i2cSetAddress(_ descriptor: CInt, _ address: CInt) -> CInt {
    call("ioctl I2C_SLAVE", descriptor: descriptor) { sbl_i2c_set_address(descriptor, address) }
  }

  static func i2cFunctionality(_ descriptor: CInt, _ functionality: inout UInt) -> CInt {
    call("ioctl I2C_FUNCS", descriptor: descriptor) {
      sbl_i2c_functionality(descriptor, &functionality)
    }
  }

  static func i2cSendByte(_ descriptor: CInt, _ value: UInt8) -> CInt {
    call("ioctl I2C_SMBUS", descriptor: descriptor) { sbl_i2c_send_byte(descriptor, value) }
  }

  static func i2cWriteBlock(
    _ descriptor: CInt, _ command: UInt8, _ bytes: UnsafePointer<UInt8>?, _ count: CInt
  ) -> CInt {
    call("ioctl I2C_SMBUS", descriptor: descriptor) {
      sbl_i2c_write_block(descriptor, command, bytes, count)
    }
  }

  // MARK: - Waiting

  static func poll(_ entries: UnsafeMutablePointer<pollfd>?, _ count: Int, _ timeout: CInt)
    -> CInt
  {
    call("poll") { Glibc.poll(entries, nfds_t(count), timeout) }
  }

  /// `ppoll` with the signal mask as it is: a timeout to the nanosecond, nil for none.
  static func ppoll(
    _ entries: UnsafeMutablePointer<pollfd>?, _ count: Int, _ timeout: UnsafePointer<timespec>?
  ) -> CInt {
    call("ppoll") { sbl_ppoll(entries, count, timeout) }
  }

  static func epollCreate() -> CInt {
    call("epoll_create1") { sbl_epoll_create() }
  }

  /// What `epollControl` does with a descriptor (the C shim's numbers).
  enum EpollOperation: CInt {
    case add = 0
    case change = 1
    case remove = 2
  }

  /// `epoll_ctl`; `events` are poll(2) bits.
  static func epollControl(
    _ poller: CInt, _ operation: EpollOperation, _ descriptor: CInt, _ events: UInt32,
    _ key: UInt64
  ) -> CInt {
    call("epoll_ctl", descriptor: descriptor) {
      sbl_epoll_control(poller, operation.rawValue, descriptor, events, key)
    }
  }

  /// `epoll_pwait2` with the signal mask as it is: a timeout to the nanosecond, nil for
  /// none; the ready descriptors' keys and poll(2) events.
  static func epollWait(
    _ poller: CInt, _ keys: UnsafeMutablePointer<UInt64>, _ events: UnsafeMutablePointer<UInt32>,
    _ capacity: Int, _ timeout: UnsafePointer<timespec>?
  ) -> CInt {
    call("epoll_pwait2") {
      keys.withMemoryRebound(to: CUnsignedLongLong.self, capacity: capacity) { keys in
        sbl_epoll_wait(poller, keys, events, CInt(capacity), timeout)
      }
    }
  }

  static func timerCreate() -> CInt {
    call("timerfd_create") { sbl_timer_create() }
  }

  static func timerArm(_ descriptor: CInt, _ deadline: Int64) -> CInt {
    call("timerfd_settime", descriptor: descriptor) { sbl_timer_arm(descriptor, deadline) }
  }

  static func setTimerSlack(_ nanoseconds: UInt) -> CInt {
    call("prctl") { sbl_set_timer_slack(nanoseconds) }
  }

  static func epollWatching(_ descriptors: [CInt]) -> CInt {
    call("epoll_create1") { sbl_epoll_watching(descriptors, descriptors.count) }
  }

  static func becomeBackgroundThread(named name: String, niceness increment: CInt) -> CInt {
    call("setpriority") { sbl_become_background_thread(name, increment) }
  }

  static func pipe(_ descriptors: UnsafeMutablePointer<CInt>) -> CInt {
    call("pipe2") { sbl_pipe(descriptors) }
  }

  static func inotifyInit(_ flags: CInt) -> CInt {
    call("inotify_init1") { Glibc.inotify_init1(flags) }
  }

  static func inotifyAddWatch(_ descriptor: CInt, _ path: String, _ mask: UInt32) -> CInt {
    call("inotify_add_watch", descriptor: descriptor, paths: [path]) {
      Glibc.inotify_add_watch(descriptor, path, mask)
    }
  }

  static func inotifyRemoveWatch(_ descriptor: CInt, _ watch: CInt) -> CInt {
    call("inotify_rm_watch", descriptor: descriptor) { Glibc.inotify_rm_watch(descriptor, watch) }
  }

  // MARK: - Signals

  static func blockSignals(_ signals: inout sigset_t) -> CInt {
    // pthread_sigmask returns the error number instead of setting errno.
    call("pthread_sigmask") { pthread_sigmask(SIG_BLOCK, &signals, nil) }
  }

  static func signalfd(_ signals: inout sigset_t) -> CInt {
    call("signalfd") { sbl_signalfd(&signals) }
  }

  static func readSignal(
    _ descriptor: CInt, _ number: inout CInt, _ code: inout CInt, _ sender: inout pid_t
  ) -> CInt {
    call("read", descriptor: descriptor) {
      sbl_signalfd_read(descriptor, &number, &code, &sender)
    }
  }

  static func setSignalAction(_ signal: CInt, _ action: inout sigaction) -> CInt {
    call("sigaction") { sigaction(signal, &action, nil) }
  }

  // MARK: - Sockets

  static func unixSocket() -> CInt {
    call("socket") { sbl_unix_socket() }
  }

  static func internetSocket(family: CInt) -> CInt {
    call("socket") { Glibc.socket(family, CInt(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0) }
  }

  static func datagramSocket() -> CInt {
    call("socket") { Glibc.socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0) }
  }

  static func bind(_ descriptor: CInt, _ path: String) -> CInt {
    call("bind", descriptor: descriptor, paths: [path]) { sbl_unix_bind(descriptor, path) }
  }

  static func connect(_ descriptor: CInt, _ path: String) -> CInt {
    call("connect", descriptor: descriptor, paths: [path]) { sbl_unix_connect(descriptor, path) }
  }

  static func listen(_ descriptor: CInt, _ backlog: CInt) -> CInt {
    call("listen", descriptor: descriptor) { Glibc.listen(descriptor, backlog) }
  }

  static func accept(_ descriptor: CInt) -> CInt {
    call("accept4", descriptor: descriptor) { sbl_unix_accept(descriptor) }
  }

  static func send(_ descriptor: CInt, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: CInt)
    -> Int
  {
    call("send", descriptor: descriptor) { Glibc.send(descriptor, buffer, count, flags) }
  }

  static func sendto(
    _ descriptor: CInt, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: CInt,
    _ address: UnsafePointer<sockaddr>, _ length: socklen_t
  ) -> Int {
    call("sendto", descriptor: descriptor) {
      Glibc.sendto(descriptor, buffer, count, flags, address, length)
    }
  }

  static func setsockopt(
    _ descriptor: CInt, _ level: CInt, _ option: CInt, _ value: UnsafeRawPointer,
    _ length: socklen_t
  ) -> CInt {
    call("setsockopt", descriptor: descriptor) {
      Glibc.setsockopt(descriptor, level, option, value, length)
    }
  }

  // MARK: - Clocks, processes and users

  static func clockGetTime(_ clock: clockid_t, _ time: inout timespec) -> CInt {
    Glibc.clock_gettime(clock, &time)
  }

  static func clockSleep(_ clock: clockid_t, until time: inout timespec) -> CInt {
    Glibc.clock_nanosleep(clock, TIMER_ABSTIME, &time, nil)
  }

  /// The local calendar time of `time` (`localtime_r`, which reads the time zone file
  /// the first time); false when it cannot be worked out.
  static func localTime(_ time: inout time_t, _ parts: inout tm) -> Bool {
    localtime_r(&time, &parts) != nil
  }

  static func processID() -> pid_t {
    getpid()
  }

  static func effectiveUserID() -> uid_t {
    geteuid()
  }

  /// The name of the user `id`; nil when the user database has none.
  static func userName(_ id: uid_t) -> String? {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buffer in
      guard getpwuid_r(id, &entry, buffer.baseAddress!, buffer.count, &result) == 0,
        result != nil, let name = entry.pw_name
      else { return nil }
      return String(cString: name)
    }
  }

  /// This machine's name (`gethostname`), NUL-terminated in `buffer` of `count` bytes.
  static func gethostname(_ buffer: UnsafeMutablePointer<CChar>, _ count: Int) -> CInt {
    call("gethostname") { Glibc.gethostname(buffer, count) }
  }

  /// `count` random bytes from the kernel (`getrandom`).
  static func randomBytes(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    call("getrandom") { sbl_random_bytes(buffer, count) }
  }
}
