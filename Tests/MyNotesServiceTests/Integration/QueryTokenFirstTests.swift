import Foundation
import MyNotesTesting
import Testing

/// The legacy query checks the token before it reads a note, and a wrong token costs
/// the same whether or not the account exists (docs/PROTOCOL.md: no probing for accounts).
@Suite("Query checks the token first")
struct QueryTokenFirstTests {
    static func query(email: String, token: String) -> String {
        "GET /mynotes/webservice.php?email=\(FormEncoding.escape(email))"
            + "&token=\(FormEncoding.escape(token))&action=query HTTP/1.1\r\nHost: t\r\n\r\n"
    }

    /// Reading notes fails in this store: only a request whose check passes gets that far.
    @Test(
        "A refused query reads no note",
        arguments: [
            ("ann@example.com", "right", -3),
            ("ann@example.com", "wrong", -9),
            ("nobody@example.com", "wrong", -9),
            ("nobody@example.com", "right", -9),
        ])
    func refusedQueryReadsNoNote(email: String, token: String, expected: Int) throws {
        let server = try TestServer(.init(auth: .token, failing: [.notes]))
        defer { server.shutdown() }
        let real = try server.createAccount(email: "ann@example.com")
        let client = try RawHTTPClient(port: server.port)
        let sent = token == "right" ? real : "not-\(real)"
        #expect(try client.send(Self.query(email: email, token: sent)).resultCode == expected)
    }

    /// Hundreds of wrong-token queries for an account with 2,000 notes and for a missing
    /// account, interleaved on one connection: their medians agree. Reading the notes
    /// before the check (as the query once did) made the first several times slower.
    @Test("A wrong token costs the same whether or not the account exists")
    func constantTime() throws {
        let server = try TestServer(.init(auth: .token))
        defer { server.shutdown() }
        _ = try server.createAccount(email: "ann@example.com")
        try BulkNotes.insert(
            2_000, email: "ann@example.com",
            into: server.directory.appendingPathComponent("notes.sqlite").path,
            content: BulkNotes.awkward)
        let client = try RawHTTPClient(port: server.port)
        let existing = Array(Self.query(email: "ann@example.com", token: "wrong").utf8)
        let missing = Array(Self.query(email: "nobody@example.com", token: "wrong").utf8)
        let clock = ContinuousClock()
        var times: (existing: [Duration], missing: [Duration]) = ([], [])
        for round in 0..<400 {
            // Alternate which goes first, so neither always follows the other.
            for isExisting in round.isMultiple(of: 2) ? [true, false] : [false, true] {
                let start = clock.now
                let response = try client.send(isExisting ? existing : missing)
                let elapsed = clock.now - start
                #expect(response.resultCode == -9)
                // The first rounds warm caches and connections up.
                guard round >= 50 else { continue }
                if isExisting {
                    times.existing.append(elapsed)
                } else {
                    times.missing.append(elapsed)
                }
            }
        }
        let medians = (existing: Self.median(times.existing), missing: Self.median(times.missing))
        let gap = max(medians.existing, medians.missing) - min(medians.existing, medians.missing)
        let tolerance = max(medians.missing * 0.15, .microseconds(20))
        #expect(
            gap <= tolerance,
            "medians: existing account \(medians.existing), missing account \(medians.missing)")
    }

    static func median(_ samples: [Duration]) -> Duration {
        samples.sorted()[samples.count / 2]
    }
}
