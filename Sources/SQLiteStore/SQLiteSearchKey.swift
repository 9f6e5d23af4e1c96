import MyNotesDomain

/// The row ids of the search index's FTS5 tables (``SQLiteSearchIndex``): ordered as a
/// search's pages are, so that the index itself hands over an account's matches newest
/// first and a page stops once it has what it needs.
///
/// A key is the account (21 bits), the day of the note's date (22 bits) and a number
/// within that account and day (20 bits), so an account's keys are one range, and a key
/// of a later day is larger. Within a day the order is the order of indexing, not the
/// page's: a page that holds notes of a day reads the rest of that day's matches, then
/// stops at the first match of an older day it cannot use. Notes whose key cannot be
/// made so (an account id of 21 bits or more, a day with a million notes of one account,
/// a date other programs wrote in another form) take a key in the *unordered* range
/// after every account's, in id order; a search reads all of the account's matches
/// there (in practice none).
///
/// ```swift
/// let keys = SQLiteSearchKey.range(account: 7, before: nil)  // all of account 7's keys
/// ```
enum SQLiteSearchKey {
    static let accountBits: Int64 = 21
    static let dayBits: Int64 = 22
    static let numberBits: Int64 = 20
    static let numberMask: Int64 = 1 << numberBits - 1
    static let dayMask: Int64 = 1 << dayBits - 1
    /// The account field of the unordered range: no account's.
    static let unorderedAccount: Int64 = 1 << accountBits - 1
    static let unorderedFirst = unorderedAccount << (dayBits + numberBits)
    static let unorderedLast = Int64.max

    /// The first key of the account's notes dated on the day of `sortKey`, or `nil` when
    /// such notes take unordered keys.
    static func firstOfDay(account: Int64, sortKey: String) -> Int64? {
        guard account > 0, account < unorderedAccount, let day = day(of: sortKey) else {
            return nil
        }
        return account << (dayBits + numberBits) | day << numberBits
    }

    /// The unordered key of note `id`.
    static func unordered(id: Int64) -> Int64 {
        unorderedFirst | (id & (1 << (dayBits + numberBits) - 1))
    }

    /// The account's ordered keys, up to the end of the cursor's day when there is one.
    static func range(account: Int64, before cursor: NotePosition?) -> ClosedRange<Int64>? {
        guard account > 0, account < unorderedAccount else { return nil }
        let first = account << (dayBits + numberBits)
        let lastDay = cursor.flatMap { day(of: $0.sortKey) } ?? dayMask
        return first...(first | lastDay << numberBits | numberMask)
    }

    /// The day a key of the ordered range stands for.
    static func day(ofKey key: Int64) -> Int64 {
        key >> numberBits & dayMask
    }

    /// `yyyy-MM-dd…` as a number that grows with the date (not a count of days: months
    /// of 31): `nil` for anything else.
    static func day(of sortKey: String) -> Int64? {
        var digits: [Int64] = []
        for (offset, byte) in sortKey.utf8.prefix(10).enumerated() {
            if offset == 4 || offset == 7 {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                digits.append(Int64(byte - UInt8(ascii: "0")))
            }
        }
        guard digits.count == 8 else { return nil }
        let year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3]
        let month = digits[4] * 10 + digits[5]
        let day = digits[6] * 10 + digits[7]
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        return year * 372 + (month - 1) * 31 + (day - 1)
    }
}
