/// The median of `values`.
func median(_ values: [Int64]) -> Int64 {
  values.sorted()[values.count / 2]
}

/// Nanoseconds as microseconds with one decimal (`12.3`).
func microseconds(_ nanoseconds: Int64) -> String {
  let tenths = (nanoseconds + 50) / 100
  return "\(tenths / 10).\(tenths % 10)"
}
