import Foundation
import MyNotesDomain
import MyNotesService
import MyNotesTesting
import Secrets
import Testing

/// A sign-in's time must not tell which emails have accounts. The attack as it
/// was found: a 1,100-byte password was refused before any hash for an existing account
/// (under a millisecond) and hashed for an unknown one (135 ms). Replayed over TCP, the
/// cases interleaved, at a cost (40,000 rounds, about 10 ms) that makes a skipped hash
/// stand out from a connection's noise; their medians must agree.
@Suite struct SignInTimingTests {
    static let rounds = 40_000
    static let samples = 41

    enum Attempt: String, CaseIterable, Sendable {
        case existingLongPassword, unknownLongPassword, existingWrongPassword
        case noPasswordAccount

        var body: [String: String] {
            let long = String(repeating: "p", count: 1_100)
            return switch self {
            case .existingLongPassword: ["email": "ann@example.com", "password": long]
            case .unknownLongPassword: ["email": "nobody@example.com", "password": long]
            case .existingWrongPassword: ["email": "ann@example.com", "password": "wrong password"]
            case .noPasswordAccount: ["email": "ops@example.com", "password": "wrong password"]
            }
        }
    }

    @Test func everyRefusedSignInTakesOnePasswordCheck() throws {
        let server = try TestServer(
            .init(
                signInLimits: SignInLimits(perAccount: 10_000, perAddress: 10_000),
                passwordHasher: PasswordHasher(iterations: Self.rounds)))
        defer { server.shutdown() }
        try server.createAccount(email: "ann@example.com", password: "right password")
        try server.createAccount(email: "ops@example.com")
        let client = RESTClient(server, over: .socket)
        var times: [Attempt: [Duration]] = [:]
        for round in 0..<Self.samples {
            // Rotated, so no case always follows the same one.
            let order = Attempt.allCases.indices.map {
                Attempt.allCases[($0 + round) % Attempt.allCases.count]
            }
            for attempt in order {
                let started = ContinuousClock.now
                let response = try client.send("POST", "/api/v1/sessions", json: attempt.body)
                times[attempt, default: []].append(ContinuousClock.now - started)
                #expect(response.status == 401, "\(attempt): \(response.text)")
            }
        }
        let medians = times.mapValues { $0.sorted()[$0.count / 2] }
        let slowest = medians.values.max() ?? .zero
        let fastest = medians.values.min() ?? .zero
        // A skipped check is one derivation (about 10 ms here) faster: nearly all of the
        // slowest (0.9 ms against 27 ms when this test was run against the old code). The
        // bound leaves room for a machine busy with other work: at a load average of 34 on
        // two cores, the medians of a correct server were 14 and 26 ms.
        #expect(slowest - fastest <= slowest * 0.6, "medians: \(medians)")
        #expect(fastest >= .milliseconds(1), "no case skipped the check: \(medians)")
        print("sign-in medians over TCP at \(Self.rounds) rounds: \(medians)")
    }
}
