/// The `date` parameter: `yyyy-MM-dd`, `yyyy-MM-dd HH:mm` or `yyyy-MM-dd HH:mm:ss`,
/// a real calendar date in years 0001–9999. `HH:mm` is stored with `:00` seconds.
struct NoteDate: Equatable {
    /// The date as stored and answered in `CDate`.
    let text: String

    init?(_ parameter: String) {
        let bytes = Array(parameter.utf8)
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
            let month = number(5..<7), bytes[7] == UInt8(ascii: "-"),
            let day = number(8..<10),
            (1...9999).contains(year), (1...12).contains(month),
            (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        guard bytes.count > 10 else {
            text = parameter
            return
        }
        guard bytes[10] == UInt8(ascii: " "), let hour = number(11..<13),
            bytes[13] == UInt8(ascii: ":"), let minute = number(14..<16),
            (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        if bytes.count == 16 {
            text = parameter + ":00"
            return
        }
        guard bytes[16] == UInt8(ascii: ":"), let second = number(17..<19),
            (0...59).contains(second)
        else { return nil }
        text = parameter
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
