// Statistics and number formatting for the figures. Kept out of main.swift: functions
// declared there belong to its top-level code, and Swift 6.0's compiler cannot lower a
// call to one of them from another file.

func percentile<T: BinaryInteger>(_ sorted: [T], _ fraction: Double) -> T {
  sorted[min(Int(Double(sorted.count - 1) * fraction + 0.5), sorted.count - 1)]
}

/// A figure over repeated runs: its median and its range.
struct Spread {
  var values: [Double]
  var median: Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
  var minimum: Double { values.min() ?? 0 }
  var maximum: Double { values.max() ?? 0 }

  func text(_ digits: Int = 1) -> String {
    "\(format(median, digits)) (\(format(minimum, digits))–\(format(maximum, digits)))"
  }
}

/// `value` with `digits` decimals; "–" for a figure there is none of (NaN, as a run
/// whose every key crossed to the other processor has no p50 on one processor).
func format(_ value: Double, _ digits: Int = 1) -> String {
  guard value.isFinite else { return "–" }
  var scale = 1.0
  for _ in 0..<digits {
    scale *= 10
  }
  let rounded = (value * scale).rounded() / scale
  if digits == 0 {
    return String(Int(rounded))
  }
  let whole = Int(rounded.magnitude)
  let fraction = Int(((rounded.magnitude - Double(whole)) * scale).rounded())
  let fractionText = String(fraction)
  let padded = String(repeating: "0", count: max(digits - fractionText.count, 0)) + fractionText
  return (rounded < 0 ? "-" : "") + "\(whole).\(padded)"
}

func ratio(_ numerator: Double, _ denominator: Double) -> String {
  denominator > 0 ? format(numerator / denominator, 2) + "x" : "–"
}
