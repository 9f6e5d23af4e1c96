#if canImport(Glibc)
    import Glibc
#endif

/// RFC 3339 timestamps in UTC with milliseconds, e.g. `2026-11-29T08:15:30.250Z`.
///
/// ```swift
/// RFC3339.string(milliseconds: 0)  // "1970-01-01T00:00:00.000Z"
/// ```
public enum RFC3339 {
    public static func string(milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds.quotientAndRemainder(dividingBy: 1000).quotient)
        var remainder = Int(milliseconds % 1000)
        if remainder < 0 {
            remainder += 1000
            seconds -= 1
        }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return
            "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
            + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
            + ".\(pad(Int32(remainder), 3))Z"
    }
}
