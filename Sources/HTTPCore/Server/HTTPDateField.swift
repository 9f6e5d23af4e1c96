#if canImport(Glibc)
    import Glibc
#endif

/// The `Date` field every answer carries (RFC 9110 §6.6.1), formatted once a second per
/// event loop rather than once per answer. Used by one loop thread only.
struct HTTPDateField {
    private var second = 0
    private(set) var line: [UInt8] = []

    /// `Date: <IMF-fixdate>\r\n` for the current second.
    mutating func current() -> [UInt8] {
        let now = time(nil)
        if now != second || line.isEmpty {
            second = now
            var parts = tm()
            var clock = now
            gmtime_r(&clock, &parts)
            var buffer = [CChar](repeating: 0, count: 64)
            let count = strftime(
                &buffer, buffer.count, "Date: %a, %d %b %Y %H:%M:%S GMT\r\n", &parts)
            line = buffer.prefix(count).map { UInt8(bitPattern: $0) }
        }
        return line
    }
}
