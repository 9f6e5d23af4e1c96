/// A note's date as the protocol defines it: `yyyy-MM-dd`, `yyyy-MM-dd HH:mm` or
/// `yyyy-MM-dd HH:mm:ss`, a real Gregorian date in years 0001–9999. `HH:mm` is stored
/// (and printed) as `HH:mm:00`; a bare day stays a bare day, so the server sends a
/// date back as it was written and a client never turns a day into some midnight in
/// some time zone. The one grammar of server and SDK.
///
/// ```swift
/// let day = NoteDate("2026-11-29")!             // no time of day
/// let meeting = NoteDate("2026-11-29 14:30")!   // stored as 14:30:00
/// meeting.description                           // "2026-11-29 14:30:00"
/// day < meeting                                 // true: a bare day is its midnight
/// ```
public struct NoteDate: Sendable, Hashable, Comparable, LosslessStringConvertible {
    /// A time of day, to the second.
    public struct Time: Sendable, Hashable {
        /// 0–23.
        public let hour: Int
        /// 0–59.
        public let minute: Int
        /// 0–59; `0` when the date was given as `HH:mm`.
        public let second: Int
    }

    /// 1–9999.
    public let year: Int
    /// 1–12.
    public let month: Int
    /// 1–31, a real day of that month.
    public let day: Int
    /// The time of day, or `nil` for a bare day.
    public let time: Time?

    /// Creates a date from its parts; `nil` unless it is a real Gregorian date in
    /// years 1–9999 with a time in 00:00:00–23:59:59.
    public init?(
        year: Int, month: Int, day: Int, time: (hour: Int, minute: Int, second: Int)? = nil
    ) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.days(inMonth: month, year: year)).contains(day)
        else { return nil }
        if let time {
            guard (0...23).contains(time.hour), (0...59).contains(time.minute),
                (0...59).contains(time.second)
            else { return nil }
            self.time = Time(hour: time.hour, minute: time.minute, second: time.second)
        } else {
            self.time = nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `yyyy-MM-dd`, `yyyy-MM-dd HH:mm` or `yyyy-MM-dd HH:mm:ss`: ASCII
    /// digits, no spaces around, no other separator.
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ NoteDate(utf8: $0) }) else { return nil }
        self = parsed
    }

    /// Parses the same forms as ``init(_:)`` from UTF-8 bytes: a column a store reads
    /// becomes a date without a `String` made first.
    ///
    /// ```swift
    /// Array("2026-11-29".utf8).withUnsafeBufferPointer { NoteDate(utf8: $0) }
    /// ```
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 10 || bytes.count == 16 || bytes.count == 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), bytes[4] == UInt8(ascii: "-"),
            let month = number(5..<7), bytes[7] == UInt8(ascii: "-"), let day = number(8..<10)
        else { return nil }
        guard bytes.count > 10 else {
            self.init(year: year, month: month, day: day)
            return
        }
        guard bytes[10] == UInt8(ascii: " "), let hour = number(11..<13),
            bytes[13] == UInt8(ascii: ":"), let minute = number(14..<16)
        else { return nil }
        var second = 0
        if bytes.count == 19 {
            guard bytes[16] == UInt8(ascii: ":"), let value = number(17..<19) else { return nil }
            second = value
        }
        self.init(year: year, month: month, day: day, time: (hour, minute, second))
    }

    /// The wire form, as stored and answered: `yyyy-MM-dd` or `yyyy-MM-dd HH:mm:ss`.
    public var description: String {
        String(unsafeUninitializedCapacity: utf8Count) { buffer in
            var count = 0
            writeText { byte in
                buffer[count] = byte
                count += 1
            }
            return count
        }
    }

    /// Appends ``description``'s bytes to `out` without making a `String`: a response
    /// writer puts thousands of dates into one buffer. Its digits and separators need no
    /// escaping in JSON or XML.
    ///
    /// ```swift
    /// var out = Array("CDate=".utf8)
    /// NoteDate("2026-11-29 14:30")!.appendText(to: &out)  // CDate=2026-11-29 14:30:00
    /// ```
    public func appendText(to out: inout [UInt8]) {
        writeText { out.append($0) }
    }

    /// The length of ``description`` in bytes: 10 for a bare day, 19 with a time.
    public var utf8Count: Int { time == nil ? 10 : 19 }

    /// The one writer of the wire form, byte by byte, for ``description`` and
    /// ``appendText(to:)``.
    @inline(__always)
    private func writeText(_ put: (UInt8) -> Void) {
        func digits(_ value: Int, width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                put(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(year, width: 4)
        put(UInt8(ascii: "-"))
        digits(month, width: 2)
        put(UInt8(ascii: "-"))
        digits(day, width: 2)
        guard let time else { return }
        put(UInt8(ascii: " "))
        digits(time.hour, width: 2)
        put(UInt8(ascii: ":"))
        digits(time.minute, width: 2)
        put(UInt8(ascii: ":"))
        digits(time.second, width: 2)
    }

    /// Orders as points in time: a bare day is its midnight; ties keep no further order.
    public static func < (lhs: NoteDate, rhs: NoteDate) -> Bool {
        lhs.instant < rhs.instant
    }

    private var instant: (Int, Int, Int, Int, Int, Int) {
        (year, month, day, time?.hour ?? 0, time?.minute ?? 0, time?.second ?? 0)
    }

    /// Days in a month of the Gregorian calendar, leap years included.
    ///
    /// ```swift
    /// NoteDate.days(inMonth: 2, year: 2000)  // 29
    /// ```
    public static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
