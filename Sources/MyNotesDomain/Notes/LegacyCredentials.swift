/// What a legacy request presents for an account: its email and the hash of its token
/// (`nil` without one, or when email-only mode ignores tokens). Made once per request by
/// ``NotesService/credentials(email:token:)``; it also keys cached answers, so the token
/// itself is never kept.
package struct LegacyCredentials: Sendable, Hashable {
    package let email: Email
    package let tokenHash: [UInt8]?
}
