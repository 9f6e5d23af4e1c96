import CSQLite
import Foundation  // memchr, memcmp
import MyNotesDomain
import StorageSupport

extension SQLiteConnection {
    /// Registers the SQL functions the store's queries use: `mynotes_fold(text)`, the
    /// Swift ``TextFolding`` (SQLite's own `lower` and `LIKE` fold ASCII only), and
    /// `mynotes_contains(haystack, needle)` and `mynotes_matches(text, folded needle)`,
    /// which search tests candidates with.
    func registerFunctions() throws(SQLiteError) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        try check(
            sqlite3_create_function_v2(
                handle, "mynotes_fold", 1, flags, nil, foldFunction, nil, nil, nil),
            sql: nil)
        try check(
            sqlite3_create_function_v2(
                handle, "mynotes_contains", 2, flags, nil, containsFunction, nil, nil, nil),
            sql: nil)
        try check(
            sqlite3_create_function_v2(
                handle, "mynotes_matches", 2, flags, nil, matchesFunction, nil, nil, nil),
            sql: nil)
    }
}

/// `mynotes_fold(text)`: NULL stays NULL; anything else is read as UTF-8 text.
private let foldFunction:
    @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, count, values in
        guard count == 1, let value = values?[0], let bytes = sqlite3_value_text(value) else {
            sqlite3_result_null(context)
            return
        }
        let length = Int(sqlite3_value_bytes(value))
        let text = String(
            decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        let folded = TextFolding.fold(text)
        var utf8 = folded
        utf8.withUTF8 { buffer in
            sqlite3_result_text64(
                context,
                buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                sqlite3_uint64(buffer.count), csqlite_transient(), UInt8(SQLITE_UTF8))
        }
    }

/// `mynotes_contains(haystack, needle)`: 1 when the needle's UTF-8 occurs in the
/// haystack's, else 0; NULL when either is NULL. What `instr(haystack, needle) > 0`
/// answers on text (UTF-8 is self-synchronizing: a match of valid UTF-8 starts at a
/// character), found by the C library's `memchr` to the needle's first byte, then
/// `memcmp`, instead of `instr`'s call to `memcmp` at every character: a 64 KiB note in
/// microseconds rather than a third of a millisecond.
private let containsFunction:
    @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, count, values in
        guard count == 2, let haystackValue = values?[0], let needleValue = values?[1],
            let haystack = sqlite3_value_text(haystackValue),
            let needle = sqlite3_value_text(needleValue)
        else {
            sqlite3_result_null(context)
            return
        }
        let needleLength = Int(sqlite3_value_bytes(needleValue))
        let haystackLength = Int(sqlite3_value_bytes(haystackValue))
        sqlite3_result_int(
            context, contains(haystack, haystackLength, needle, needleLength) ? 1 : 0)
    }

private func contains(
    _ haystack: UnsafePointer<UInt8>, _ haystackLength: Int, _ needle: UnsafePointer<UInt8>,
    _ needleLength: Int
) -> Bool {
    if needleLength == 0 { return true }
    let first = Int32(needle[0])
    var at = haystack
    var left = haystackLength
    while left >= needleLength {
        guard let hit = memchr(at, first, left - needleLength + 1) else { return false }
        let start = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
        if memcmp(start, needle, needleLength) == 0 { return true }
        left -= at.distance(to: start) + 1
        at = start + 1
    }
    return false
}

/// `mynotes_matches(text, needle)`: `mynotes_contains(mynotes_fold(text), needle)` for a
/// folded needle, without making the folded text when `text` is ASCII (most notes): its
/// bytes are compared lower-cased in place. NULL when either is NULL.
private let matchesFunction:
    @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, count, values in
        guard count == 2, let textValue = values?[0], let needleValue = values?[1],
            let text = sqlite3_value_text(textValue), let needle = sqlite3_value_text(needleValue)
        else {
            sqlite3_result_null(context)
            return
        }
        let textLength = Int(sqlite3_value_bytes(textValue))
        let needleLength = Int(sqlite3_value_bytes(needleValue))
        let bytes = UnsafeBufferPointer(start: text, count: textLength)
        let found: Bool
        if bytes.allSatisfy({ $0 < 0x80 }) {
            found = containsLowerCased(
                bytes, UnsafeBufferPointer(start: needle, count: needleLength))
        } else {
            var folded = TextFolding.fold(String(storedText: bytes))
            found = folded.withUTF8 { buffer in
                guard let base = buffer.baseAddress else { return needleLength == 0 }
                return contains(base, buffer.count, needle, needleLength)
            }
        }
        sqlite3_result_int(context, found ? 1 : 0)
    }

/// Whether ASCII `text`, lower-cased, holds `needle`.
private func containsLowerCased(
    _ text: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>
) -> Bool {
    guard needle.count <= text.count else { return false }
    if needle.isEmpty { return true }
    for start in 0...(text.count - needle.count) {
        var offset = 0
        while offset < needle.count {
            let byte = text[start + offset]
            if byte | (byte &- 0x41 < 26 ? 0x20 : 0) != needle[offset] { break }
            offset += 1
        }
        if offset == needle.count { return true }
    }
    return false
}
