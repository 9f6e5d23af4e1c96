import BoundedExecution
import Foundation
import MyNotesDomain
import MyNotesTesting
import SQLiteStore
import Secrets
import Testing

@testable import MyNotesService

/// A sign-up hashes only when it can succeed. A taken email is found by
/// a cheap read and answered after a wait as long as a free sign-up takes, so neither
/// the CPU nor the clock tells an attacker more than the 409 does.
@Suite("Sign-up cost")
struct SignUpCostTests {
    /// A session service over a new database, hashing at a small cost on a real
    /// bounded executor of one thread.
    final class Fixture: Sendable {
        let directory: URL
        let store: SQLiteNoteStore
        let hashing = BoundedExecutor(
            name: "test-hashing", limits: ExecutorLimits(threads: 1, queueLimit: 8))
        let sessions: SessionService

        init(iterations: Int = 40_000) throws {
            // On tmpfs when there is one: a commit's fsync then costs nothing, so the
            // free sign-ups' cost does not drift with the disk's writeback of other
            // work (in CI, of the suite before), which a taken one's wait lags behind.
            directory = TestServer.scratch.appendingPathComponent(
                "mynotes-signup-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true)
            store = try SQLiteNoteStore(path: directory.appendingPathComponent("n.sqlite").path)
            sessions = SessionService(
                store: store,
                configuration: ServiceConfiguration(
                    passwordHasher: PasswordHasher(iterations: iterations),
                    signUpRate: .unlimited, signInRate: .unlimited),
                hashing: hashing,
                keeper: SessionKeeper(
                    store: store, lifetime: .standard, clock: ContinuousClock()))
        }

        deinit {
            hashing.close()
            store.close()
            try? FileManager.default.removeItem(at: directory)
        }

        /// How long one sign-up takes on the real clock, and how it ended.
        func timedSignUp(_ email: String) async -> (Duration, Result<Void, SessionError>) {
            let started = ContinuousClock.now
            do {
                _ = try await sessions.signUp(
                    email: email, password: "password 123", from: "192.0.2.1")
                return (ContinuousClock.now - started, .success(()))
            } catch {
                return (ContinuousClock.now - started, .failure(error))
            }
        }
    }

    static func median(_ samples: [Duration]) -> Duration {
        samples.sorted()[samples.count / 2]
    }

    static func isDuplicate(_ result: Result<Void, SessionError>) -> Bool {
        if case .failure(.duplicateEmail) = result { return true }
        return false
    }

    @Test func aTakenEmailCostsNoHash() async throws {
        let fixture = try Fixture()
        // Given one account signed up: one hash
        let (_, first) = await fixture.timedSignUp("ann@example.com")
        #expect((try? first.get()) != nil)
        #expect(fixture.sessions.signUpCost.hashes == 1)
        // When its email is signed up again, in any ASCII case
        for email in ["ann@example.com", "ANN@example.com", " ann@Example.COM "] {
            let (_, again) = await fixture.timedSignUp(email)
            #expect(Self.isDuplicate(again), "\(email)")
        }
        // Then no password was hashed for them
        #expect(fixture.sessions.signUpCost.hashes == 1)
    }

    @Test func aTakenEmailIsAnsweredAsSlowlyAsAFreeOne() async throws {
        let fixture = try Fixture(iterations: 80_000)
        // Given a server that has made accounts enough to fill the history it times
        // against (so that no cold first sign-up is in it)
        for index in 0..<SignUpCost.window {
            _ = await fixture.timedSignUp("early\(index)@example.com")
        }
        _ = await fixture.timedSignUp("taken@example.com")
        // Alternating, so a slower moment of the machine hits both kinds alike
        var free: [Duration] = []
        var taken: [Duration] = []
        for index in 0..<21 {
            let (freeTime, freeResult) = await fixture.timedSignUp("free\(index)@example.com")
            #expect((try? freeResult.get()) != nil)
            free.append(freeTime)
            let (takenTime, takenResult) = await fixture.timedSignUp("taken@example.com")
            #expect(Self.isDuplicate(takenResult))
            taken.append(takenTime)
        }
        let (freeMedian, takenMedian) = (Self.median(free), Self.median(taken))
        // Then they differ by less than half a free sign-up (an answer without the wait
        // would differ by all of it), or 3 ms: other work on the machine slows the
        // hashing of free sign-ups, not a taken one's wait
        let tolerance = max(freeMedian / 2, .milliseconds(3))
        #expect(
            max(takenMedian - freeMedian, freeMedian - takenMedian) <= tolerance,
            "free median \(freeMedian), taken median \(takenMedian)")
        // And the free ones were the ones that hashed
        #expect(fixture.sessions.signUpCost.hashes == SignUpCost.window + 1 + free.count)
    }

    @Test func twoSignUpsForOneFreeEmailMakeOneAccount() async throws {
        let fixture = try Fixture()
        async let first = fixture.timedSignUp("bob@example.com")
        async let second = fixture.timedSignUp("bob@example.com")
        let results = await [first.1, second.1]
        #expect(results.filter { (try? $0.get()) != nil }.count == 1)
        #expect(results.filter(Self.isDuplicate).count == 1)
        #expect(try await fixture.store.allAccounts().count == 1)
    }
}
