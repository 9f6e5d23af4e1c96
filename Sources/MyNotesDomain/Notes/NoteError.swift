/// Why ``NotesService`` did not do what was asked. Each API maps it to what its
/// clients see: a legacy ResultCode, or a REST status with a problem+json body.
///
/// ```swift
/// do { _ = try notes.note(id, account: account) }
/// catch .notFound { /* -7, or 404 */ }
/// ```
package enum NoteError: Error, Sendable {
    /// No account has that email (legacy, email-only mode: -1).
    case noSuchAccount
    /// The email holds characters no account's email can (legacy: -8).
    case invalidEmail(EmailError)
    /// No such account, or the token is not one of its own: one answer for both (-9).
    case authenticationFailed
    /// A required field was not given (or, in the legacy protocol, given empty).
    case missingID
    case missingContent
    case missingDate
    /// The account has no note with that ID (another account's note included).
    case notFound
    /// The write would take the account past this limit of its quota (a note too many,
    /// or content bytes); nothing was written.
    case quotaExceeded(NoteQuota.Limit)
    case invalidContent(NoteContent.Problem)
    /// Not one of the `NoteDate` forms.
    case invalidDate
    /// A version was required and the note is at another one; nothing was written.
    case versionMismatch(current: Note)
    /// Any current version was required (`If-Match: *`) and there is no note.
    case preconditionFailed
    /// The store failed; its error says how.
    case storeFailed(StoreError)
}
