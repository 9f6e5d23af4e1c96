import MyNotesDomain
import MyNotesTesting
import Secrets
import Testing

/// The rules of sessions over an in-memory store, on a manual clock: lifetimes idle and in
/// all, sign-out, revoking the other sessions, a password change revoking every other
/// token, and access keys that time never ends.
@Suite struct SessionRulesTests {
    static let password = "correct horse"
    static func invalidToken(_ error: SessionError) -> Bool {
        if case .invalidToken = error { true } else { false }
    }

    /// A signed-up account and its first session's token.
    static func signUp(_ domain: DomainFixture) async throws -> (Account, String) {
        try await domain.services.sessions.signUp(
            email: "ann@example.com", password: password, from: nil)
    }

    @Test func anIdleSessionEndsAndEachUseKeepsItAlive() async throws {
        let domain = DomainFixture(lifetime: SessionLifetime(idle: .seconds(3_600), absolute: nil))
        let (ann, token) = try await Self.signUp(domain)
        let sessions = domain.services.sessions
        // Used every 59 minutes, the session outlives its idle time several times over.
        for _ in 1...3 {
            domain.clock.advance(by: .seconds(59 * 60))
            #expect(try await sessions.account(token: token) == ann)
        }
        domain.clock.advance(by: .seconds(3_600))
        await expectFailure(of: { _ = try await sessions.account(token: token) }, Self.invalidToken)
        // The expired token was removed when presented.
        #expect(try await domain.store.account(tokenHash: SHA256.hash(token)) == nil)
    }

    @Test func aSessionEndsAtItsAbsoluteLifetimeHoweverOftenUsed() async throws {
        let domain = DomainFixture(
            lifetime: SessionLifetime(idle: .seconds(3_600), absolute: .seconds(3 * 3_600)))
        let (_, token) = try await Self.signUp(domain)
        let sessions = domain.services.sessions
        for _ in 1...3 {
            domain.clock.advance(by: .seconds(50 * 60))
            _ = try await sessions.account(token: token)
        }
        domain.clock.advance(by: .seconds(30 * 60))  // three hours in all
        await expectFailure(of: { _ = try await sessions.account(token: token) }, Self.invalidToken)
    }

    @Test func anExpiredSessionFailsTheLegacyTokenCheckToo() async throws {
        let domain = DomainFixture(lifetime: SessionLifetime(idle: .seconds(60), absolute: nil))
        let (ann, token) = try await Self.signUp(domain)
        let credentials = domain.notes.credentials(
            email: try Email(validating: ann.email), token: token)
        _ = try await domain.notes.notes(credentials, firstPage: 10)
        domain.clock.advance(by: .seconds(61))
        await expectFailure(of: { _ = try await domain.notes.notes(credentials, firstPage: 10) }) {
            (error: NoteError) in
            if case .authenticationFailed = error { true } else { false }
        }
    }

    @Test func accessKeysOutliveEverySessionLifetime() async throws {
        let domain = DomainFixture(
            lifetime: SessionLifetime(idle: .seconds(60), absolute: .seconds(60)))
        let (ann, key) = try await domain.account("ann@example.com")
        domain.clock.advance(by: .seconds(365 * 86_400))
        let credentials = domain.notes.credentials(
            email: try Email(validating: ann.email), token: key)
        #expect(try await domain.notes.notes(credentials, firstPage: 10).account == ann)
    }

    @Test func signingOutRevokesThatTokenAlone() async throws {
        let domain = DomainFixture()
        let (ann, first) = try await Self.signUp(domain)
        let sessions = domain.services.sessions
        let second = try await sessions.signIn(email: ann.email, password: Self.password, from: nil)
        try await sessions.signOut(token: first)
        await expectFailure(of: { _ = try await sessions.account(token: first) }, Self.invalidToken)
        await expectFailure(of: { try await sessions.signOut(token: first) }, Self.invalidToken)
        #expect(try await sessions.account(token: second) == ann)
    }

    @Test func revokingTheOtherSessionsKeepsTheOneUsed() async throws {
        let domain = DomainFixture()
        let (ann, kept) = try await Self.signUp(domain)
        let sessions = domain.services.sessions
        var others: [String] = []
        for _ in 1...2 {
            others.append(
                try await sessions.signIn(email: ann.email, password: Self.password, from: nil))
        }
        #expect(try await sessions.sessions(token: kept).count == 3)
        #expect(try await sessions.revokeOtherSessions(token: kept) == 2)
        for other in others {
            await expectFailure(
                of: { _ = try await sessions.account(token: other) }, Self.invalidToken)
        }
        let left = try await sessions.sessions(token: kept)
        #expect(left.count == 1 && left.allSatisfy(\.isCurrent))
    }

    @Test func changingThePasswordRevokesEveryOtherToken() async throws {
        let domain = DomainFixture()
        let (ann, used) = try await Self.signUp(domain)
        let sessions = domain.services.sessions
        let other = try await sessions.signIn(email: ann.email, password: Self.password, from: nil)
        try await sessions.changePassword(
            token: used, current: Self.password, new: "battery staple", from: nil)
        await expectFailure(of: { _ = try await sessions.account(token: other) }, Self.invalidToken)
        #expect(try await sessions.account(token: used).id == ann.id)
        await expectFailure(
            of: {
                _ = try await sessions.signIn(email: ann.email, password: Self.password, from: nil)
            }
        ) { (error: SessionError) in
            if case .wrongCredentials = error { true } else { false }
        }
        // The operator's reset of the password signs everyone out, the one used included.
        _ = try await sessions.signIn(email: ann.email, password: "battery staple", from: nil)
        try await sessions.setPassword("a third one", email: ann.email)
        await expectFailure(of: { _ = try await sessions.account(token: used) }, Self.invalidToken)
    }
}
