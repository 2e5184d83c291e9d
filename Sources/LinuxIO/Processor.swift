import CScoreboardLinux

/// The processors of this machine, as the scheduler places threads on them.
public enum Processor {
  /// The number of the processor the calling thread runs on now (`sched_getcpu`); nil
  /// when the kernel cannot tell.
  public static func current() -> Int? {
    let number = sbl_current_processor()
    return number < 0 ? nil : Int(number)
  }
}
