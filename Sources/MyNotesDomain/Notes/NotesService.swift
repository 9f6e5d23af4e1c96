import Foundation
import MyNotesProtocol
import Secrets

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every rule about notes, whichever API asks: who may act on an account's notes
/// (the legacy token check), ownership (a note of another account is not found),
/// the quota, and versions (a conditional write is decided once, inside the store's
/// write). Inputs arrive as validated values (``NoteID``, ``NoteContent``, `NoteDate`,
/// ``Email``); every failure is a ``NoteError``.
///
/// ```swift
/// let notes = NotesService(
///     store: store, quota: .unlimited, authentication: .token, keeper: keeper)
/// let note = try await notes.add(
///     try NoteContent(validating: "Buy milk"), date: NoteDate("2026-11-29"), account: account)
/// _ = try await notes.change(
///     NoteID("\(note.id)")!, account: account, content: nil, date: NoteDate("2026-11-30"),
///     precondition: .matches([note.version]))
/// ```
package struct NotesService: Sendable {
    package let store: any NoteCollection & AccountStore & AnswerFreshness
    package let quota: NoteQuota
    package let authentication: AuthenticationMode
    package let keeper: SessionKeeper

    /// `keeper` is the one session keeper of the services (``DomainServices``), so that
    /// every service judges sessions on the same clock.
    package init(
        store: any NoteCollection & AccountStore & AnswerFreshness, quota: NoteQuota,
        authentication: AuthenticationMode,
        keeper: SessionKeeper
    ) {
        self.store = store
        self.quota = quota
        self.authentication = authentication
        self.keeper = keeper
    }

    // MARK: The legacy protocol's accounts

    /// The legacy `query`'s first read: the account and the token check, then, only when
    /// the check passes, the first `limit` notes (newest first), in one read. A wrong
    /// token reads no note, and costs the same whether or not the account exists. The
    /// rest follows with ``notes(account:page:)`` from the last note's position.
    /// `reusableUntil` (milliseconds since 1970, on the session keeper's clock) is how
    /// long an answer made of them may be given again without the store: until the token
    /// expires or its next use is to be recorded.
    package func notes(_ credentials: LegacyCredentials, firstPage limit: Int)
        async throws(NoteError)
        -> (account: Account, notes: [Note], reusableUntil: Int64)
    {
        let authentication = self.authentication
        let keeper = self.keeper
        let now = keeper.now
        let found: (check: TokenCheck?, notes: [Note])
        do {
            found = try await store.checkedNotes(
                email: credentials.email.text, presenting: credentials.tokenHash,
                admitting: { authentication.admits($0) && keeper.isLive($0, at: now) },
                page: NotePage(limit: limit))
        } catch {
            throw .storeFailed(error)
        }
        try await admit(found.check, at: now)
        guard let account = found.check?.account else { throw .noSuchAccount }
        return (account, found.notes, keeper.reuseDeadline(of: found.check?.session, usedAt: now))
    }

    /// The account a legacy write acts for, after the token check.
    package func account(_ credentials: LegacyCredentials) async throws(NoteError) -> Account {
        let found: TokenCheck?
        do {
            found = try await store.account(
                email: credentials.email.text, presenting: credentials.tokenHash)
        } catch {
            throw .storeFailed(error)
        }
        try await admit(found, at: keeper.now)
        guard let found else { throw .noSuchAccount }
        return found.account
    }

    /// The email with the token's hash, matched in the store against the account's tokens
    /// (an index lookup of a SHA-256, which leaks nothing useful). Email-only mode ignores
    /// tokens, so it hashes none.
    package func credentials(email: Email, token: String?) -> LegacyCredentials {
        switch authentication {
        case .token: LegacyCredentials(email: email, tokenHash: token.map { SHA256.hash($0) })
        case .legacyEmail: LegacyCredentials(email: email, tokenHash: nil)
        }
    }

    /// The store's change stamp now (see `StoreChangeStamp`): `nil` when answers read
    /// from it may not be cached.
    package func changeStamp() -> StoreChangeStamp? {
        store.changeStamp()
    }

    /// Whether an answer for `account`, read after `since`, is still the store's (see
    /// `NoteStore.isUnchanged`).
    package func isUnchanged(account: Int64, since: StoreChangeStamp, now: StoreChangeStamp) -> Bool
    {
        store.isUnchanged(account: account, since: since, now: now)
    }

    /// With tokens, a missing account and a wrong token are one answer, so nobody can
    /// probe which emails have accounts.
    /// A session past its lifetime is a wrong token (and is removed); a live one's use
    /// is recorded.
    private func admit(_ found: TokenCheck?, at now: Int64) async throws(NoteError) {
        var admitted = authentication.admits(found)
        if admitted, let session = found?.session {
            admitted = await keeper.use(session, at: now)
        }
        guard admitted else {
            switch authentication {
            case .legacyEmail: throw .noSuchAccount
            case .token: throw .authenticationFailed
            }
        }
    }

    // MARK: Notes of an account

    /// One page of the account's notes, newest first.
    package func notes(account: Account, page: NotePage) async throws(NoteError) -> [Note] {
        do {
            return try await store.notes(account: account.id, page: page)
        } catch {
            throw .storeFailed(error)
        }
    }

    package func note(_ id: NoteID, account: Account) async throws(NoteError) -> Note {
        let found: Note?
        do {
            found = try await store.note(id: id.value, account: account.id)
        } catch {
            throw .storeFailed(error)
        }
        guard let found else { throw .notFound }
        return found
    }

    /// A new note, dated now (UTC) when `date` is `nil`, within the account's quota.
    package func add(_ content: NoteContent, date: NoteDate?, account: Account)
        async throws(NoteError)
        -> Note
    {
        let draft = NoteDraft(date: date ?? Self.now(), content: content.text)
        do {
            return try await store.addNote(draft, account: account.id, quota: quota)
        } catch .quotaExceeded(let limit) {
            throw .quotaExceeded(limit)
        } catch {
            throw .storeFailed(error)
        }
    }

    /// Changes the fields given (a field left `nil` keeps the note's value at the time
    /// of the write) if `precondition` holds and the new content keeps the account within
    /// its quota's bytes (a note may always shrink).
    package func change(
        _ id: NoteID, account: Account, content: NoteContent?, date: NoteDate?,
        precondition: WritePrecondition
    ) async throws(NoteError) -> Note {
        let change = NoteChange(date: date, content: content?.text)
        let outcome: ConditionalWrite<Note>
        do {
            outcome = try await store.updateNote(
                id: id.value, account: account.id, change: change, precondition: precondition,
                quota: quota)
        } catch .quotaExceeded(let limit) {
            throw .quotaExceeded(limit)
        } catch {
            throw .storeFailed(error)
        }
        return try Self.result(of: outcome)
    }

    /// Removes the note if `precondition` holds.
    package func remove(_ id: NoteID, account: Account, precondition: WritePrecondition)
        async throws(NoteError)
    {
        let outcome: ConditionalWrite<Void>
        do {
            outcome = try await store.removeNote(
                id: id.value, account: account.id, precondition: precondition)
        } catch {
            throw .storeFailed(error)
        }
        try Self.result(of: outcome)
    }

    @discardableResult
    private static func result<Value>(of outcome: ConditionalWrite<Value>) throws(NoteError)
        -> Value
    {
        switch outcome {
        case .applied(let value): return value
        case .notFound: throw .notFound
        case .preconditionFailed(let current?): throw .versionMismatch(current: current)
        case .preconditionFailed(nil): throw .preconditionFailed
        }
    }

    /// Now in UTC, to the second: the date of a note added without one.
    private static func now() -> NoteDate {
        var seconds = time_t(Date().timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let now = NoteDate(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1,
            day: Int(parts.tm_mday),
            time: (Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)))
        // gmtime's fields are a real date and time: only a clock set past year 9999 makes
        // no date, and a note is then dated the last moment the protocol can write.
        return now ?? lastDate
    }

    private static let lastDate = NoteDate(
        year: 9999, month: 12, day: 31, time: (hour: 23, minute: 59, second: 59))!
}
