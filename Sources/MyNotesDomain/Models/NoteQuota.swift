/// How much one account may hold: a number of notes and a number of bytes of content
/// (UTF-8), each `nil` for no limit. The store checks both inside the write that would
/// exceed them, against running totals kept in the same transaction, so concurrent
/// writers cannot get past them together.
///
/// ```swift
/// let quota = NoteQuota(notes: 1_000, bytes: 10 << 20)
/// _ = try await store.addNote(draft, account: id, quota: quota)  // or .quotaExceeded(.bytes(…))
/// ```
public struct NoteQuota: Sendable, Hashable {
    /// One of the two limits, as a refused write names it.
    public enum Limit: Sendable, Hashable {
        /// At most this many notes.
        case notes(Int)
        /// At most this many bytes of content (UTF-8), all notes together.
        case bytes(Int)
    }

    /// Notes one account may hold; `nil` for no limit.
    public var notes: Int?
    /// Bytes of content (UTF-8) one account may hold; `nil` for no limit.
    public var bytes: Int?

    public init(notes: Int?, bytes: Int?) {
        self.notes = notes
        self.bytes = bytes
    }

    /// No limit at all.
    public static let unlimited = NoteQuota(notes: nil, bytes: nil)

    /// What `mynotes-server serve` enforces unless told otherwise: 100,000 notes and
    /// 100 MiB of content per account. A person's notes stay far below both; an open
    /// sign-up without them lets one client fill the disk (two connections wrote 48 MB/s).
    public static let standard = NoteQuota(notes: 100_000, bytes: 100 << 20)

    /// At most `notes` notes, any number of bytes.
    public static func atMost(_ notes: Int) -> NoteQuota {
        NoteQuota(notes: notes, bytes: nil)
    }

    /// The limit that adding a note of `addedBytes` bytes to an account holding `held`
    /// notes of `heldBytes` bytes would pass, if any.
    public func exceeded(addingNoteOf addedBytes: Int, toNotes held: Int, ofBytes heldBytes: Int)
        -> Limit?
    {
        if let notes, held >= notes { return .notes(notes) }
        return exceeded(growingBy: addedBytes, from: heldBytes)
    }

    /// The byte limit that growing an account's content from `heldBytes` by `growth`
    /// bytes would pass, if any. Shrinking is always allowed, even above the limit.
    public func exceeded(growingBy growth: Int, from heldBytes: Int) -> Limit? {
        guard let bytes, growth > 0, heldBytes + growth > bytes else { return nil }
        return .bytes(bytes)
    }
}
