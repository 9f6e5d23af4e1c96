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
        guard let parsed = text.withUTF8(Self.parse) else { return nil }
        self = parsed
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> NoteDate? {
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
        guard bytes.count > 10 else { return NoteDate(year: year, month: month, day: day) }
        guard bytes[10] == UInt8(ascii: " "), let hour = number(11..<13),
            bytes[13] == UInt8(ascii: ":"), let minute = number(14..<16)
        else { return nil }
        var second = 0
        if bytes.count == 19 {
            guard bytes[16] == UInt8(ascii: ":"), let value = number(17..<19) else { return nil }
            second = value
        }
        return NoteDate(year: year, month: month, day: day, time: (hour, minute, second))
    }

    /// The wire form, as stored and answered: `yyyy-MM-dd` or `yyyy-MM-dd HH:mm:ss`.
    public var description: String {
        let count = time == nil ? 10 : 19
        return String(unsafeUninitializedCapacity: count) { buffer in
            func put(_ value: Int, width: Int, at offset: Int) {
                var remaining = value
                for index in (offset..<offset + width).reversed() {
                    buffer[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
                    remaining /= 10
                }
            }
            put(year, width: 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(month, width: 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day, width: 2, at: 8)
            if let time {
                buffer[10] = UInt8(ascii: " ")
                put(time.hour, width: 2, at: 11)
                buffer[13] = UInt8(ascii: ":")
                put(time.minute, width: 2, at: 14)
                buffer[16] = UInt8(ascii: ":")
                put(time.second, width: 2, at: 17)
            }
            return count
        }
    }

    /// Orders as points in time: a bare day is its midnight; ties keep no further order.
    public static func < (lhs: NoteDate, rhs: NoteDate) -> Bool {
        lhs.sortKey < rhs.sortKey
    }

    private var sortKey: (Int, Int, Int, Int, Int, Int) {
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
