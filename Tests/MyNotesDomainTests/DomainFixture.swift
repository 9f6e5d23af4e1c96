import MyNotesDomain
import MyNotesProtocol
import MyNotesTesting
import Secrets
import Testing

/// The domain's services over an ``InMemoryNoteStore``, on a ``ManualClock`` that both the
/// services and the store read: tests move time instead of waiting for it.
final class DomainFixture: Sendable {
    let clock = ManualClock()
    let store: InMemoryNoteStore
    let services: DomainServices

    /// Passwords hash at the testing cost and no rate limits apply, so a sign-in costs
    /// about a millisecond and never waits.
    init(
        quota: NoteQuota = .unlimited, lifetime: SessionLifetime = .standard,
        retention: Duration? = .seconds(30 * 86_400)
    ) {
        let clock = self.clock
        let started = InMemoryNoteStore.wallClock()
        store = InMemoryNoteStore(now: { started + SessionLifetime.milliseconds(clock.now.offset) })
        var configuration = ServiceConfiguration(
            quota: quota, passwordHasher: .testing, clock: clock, signUpRate: .unlimited,
            signInRate: .unlimited, sessionLifetime: lifetime)
        configuration.changeFeed.retention = retention
        services = DomainServices(store: store, configuration: configuration)
    }

    deinit {
        services.close()
    }

    var notes: NotesService { services.notes }

    /// A new account made by the operator (its token an access key), with that token.
    func account(_ email: String) async throws -> (account: Account, token: String) {
        try await services.accounts.create(email: email)
    }

    /// A note of `content`, dated `date`.
    @discardableResult
    func add(_ content: String, date: String = "2026-11-29", to account: Account) async throws
        -> Note
    {
        try await notes.add(
            NoteContent(validating: content), date: NoteDate(validating: date), account: account)
    }

    /// Changes the note's content on `precondition`.
    func change(
        _ note: Note, to content: String, account: Account, precondition: WritePrecondition = .none
    ) async throws(NoteError) -> Note {
        try await notes.change(
            NoteID("\(note.id)")!, account: account, content: NoteContent(validating: content),
            date: nil, precondition: precondition)
    }
}

/// Records an issue unless `body` fails with an `E` for which `matches` holds.
func expectFailure<E: Error>(
    sourceLocation: SourceLocation = #_sourceLocation, of body: () async throws -> Void,
    _ matches: (E) -> Bool
) async {
    do {
        try await body()
        Issue.record("succeeded, where a failure was expected", sourceLocation: sourceLocation)
    } catch let error as E {
        if !matches(error) {
            Issue.record("failed with \(error), not as expected", sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("failed with \(error) of another type", sourceLocation: sourceLocation)
    }
}
