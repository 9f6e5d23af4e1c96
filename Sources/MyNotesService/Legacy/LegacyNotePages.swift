import MyNotesDomain
import ServerLogging

/// A query's notes read page by page (keyset pages over the account's newest-first
/// index), for an answer too large to hold: each page is read when the client has taken
/// the one before, in a read of its own, so neither memory nor a reader connection is
/// held while a client is slow.
///
/// The pages are separate reads, not one snapshot: a note written while the answer is
/// sent may or may not be in it, but no note that stays is repeated or skipped.
struct LegacyNotePages: Sendable {
    /// Notes per read: a note is at most 64 KiB, so a page holds at most 8 MiB.
    static let pageSize = 128
    /// An answer whose notes come to more bytes than this is streamed.
    static let streamingThreshold = 64 << 10
    /// How often a page read refused for overload is tried again before the answer
    /// is cut off.
    static let overloadRetries = 5

    let notes: NotesService
    let account: Account
    /// The first page, read together with the token check.
    let first: [Note]
    /// Where a failure after the answer has begun is reported: too late for a ResultCode.
    let logger: Logger

    /// Whether `first` is the whole answer (a short page) and small enough to hold.
    static func fitsInMemory(_ first: [Note]) -> Bool {
        first.count < pageSize
            && LegacyResponseWriter.estimatedSize(of: first) <= streamingThreshold
    }

    /// Whether a page is the last one: a short page ends the list.
    static func isLast(_ page: [Note]) -> Bool { page.count < pageSize }

    /// Every note, for an answer that must be whole.
    func all() async throws(NoteError) -> [Note] {
        var all = first
        var page = first
        while !Self.isLast(page), let last = page.last {
            page = try await self.page(after: last)
            all += page
        }
        return all
    }

    /// The page after `last`. The answer has begun, so a full read queue is waited out a
    /// few times rather than ending it.
    func page(after last: Note) async throws(NoteError) -> [Note] {
        let page = NotePage(after: last.position, limit: Self.pageSize)
        var attempt = 0
        while true {
            do {
                return try await notes.notes(account: account, page: page)
            } catch .storeFailed(.overloaded(let wait)) where attempt < Self.overloadRetries {
                attempt += 1
                try? await Task.sleep(for: wait)
            }
        }
    }
}
