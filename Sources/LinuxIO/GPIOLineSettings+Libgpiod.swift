import CScoreboardLinux
import ScoreboardSettings

extension GPIOLineSettings {
  /// The settings in the C shim's terms.
  var libgpiodSettings: sbl_gpio_line_settings {
    sbl_gpio_line_settings(
      direction: direction == .input ? SBL_GPIO_INPUT : SBL_GPIO_OUTPUT,
      active_low: activeLow, bias: bias.libgpiodBias, drive: drive.libgpiodDrive,
      edges: edges.libgpiodEdges, debounce_us: debounceMicroseconds, value: initialValue)
  }

  /// The debounce period in whole microseconds, rounded up; 0 for none.
  var debounceMicroseconds: UInt32 {
    guard let debounce, debounce > 0 else { return 0 }
    return UInt32(clamping: debounce / 1000 + (debounce % 1000 == 0 ? 0 : 1))
  }

  /// How libgpiod is handed these settings, in its own terms (`request=EVENT_BOTH_EDGES
  /// flags=BIAS_PULL_UP value=0` with v1), so that tests check the translation.
  ///
  /// - Throws: The `Errno` a request with these settings fails with (`ENOTSUP` for a
  ///   debounce period with libgpiod v1).
  func libgpiodDescription() throws -> String {
    var settings = libgpiodSettings
    let described: Result<String, Errno> = withUnsafeTemporaryAllocation(
      of: CChar.self, capacity: 256
    ) { buffer in
      guard sbl_gpio_describe_settings(&settings, buffer.baseAddress, buffer.count) == 0 else {
        return .failure(.current)
      }
      return .success(String(cString: buffer.baseAddress!))
    }
    return try described.get()
  }
}

extension GPIOLineSettings.Bias {
  fileprivate var libgpiodBias: sbl_gpio_bias {
    switch self {
    case .asIs: SBL_GPIO_BIAS_AS_IS
    case .disabled: SBL_GPIO_BIAS_DISABLED
    case .pullUp: SBL_GPIO_BIAS_PULL_UP
    case .pullDown: SBL_GPIO_BIAS_PULL_DOWN
    }
  }
}

extension GPIOLineSettings.Drive {
  fileprivate var libgpiodDrive: sbl_gpio_drive {
    switch self {
    case .pushPull: SBL_GPIO_DRIVE_PUSH_PULL
    case .openDrain: SBL_GPIO_DRIVE_OPEN_DRAIN
    case .openSource: SBL_GPIO_DRIVE_OPEN_SOURCE
    }
  }
}

extension GPIOLineSettings.Edges {
  fileprivate var libgpiodEdges: sbl_gpio_edges {
    switch self {
    case .none: SBL_GPIO_EDGES_NONE
    case .rising: SBL_GPIO_EDGES_RISING
    case .falling: SBL_GPIO_EDGES_FALLING
    case .both: SBL_GPIO_EDGES_BOTH
    }
  }
}
