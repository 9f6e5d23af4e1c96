import Foundation
import MyNotesTesting
import Testing

/// Many clients at once: IDs stay unique and the quota holds.
@Suite("Concurrent clients")
struct ConcurrencyTests {
    /// Runs `body(index)` on `count` threads at once and collects the results.
    static func concurrently<T: Sendable>(
        _ count: Int, _ body: @escaping @Sendable (Int) throws -> T
    ) -> [Result<T, any Error>] {
        let results = Collected<Result<T, any Error>>()
        DispatchQueue.concurrentPerform(iterations: count) { index in
            results.append(Result { try body(index) })
        }
        return results.values
    }

    @Test("Concurrent adds get distinct IDs and are all listed")
    func concurrentAdds() throws {
        let fixture = try LegacyFixture()
        let port = fixture.server.port
        let body = FormEncoding.encode(
            fixture.credentials + parameters(["action": "add", "date": "2026-11-29"]))
        let results = Self.concurrently(4) { worker -> [String] in
            let client = try RawHTTPClient(port: port)
            return try (0..<10).map { index in
                let content = "&content=w\(worker)n\(index)"
                let request =
                    "POST /mynotes/webservice.php HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count + content.utf8.count)\r\n\r\n\(body)\(content)"
                return try client.send(request).reply().id ?? "none"
            }
        }
        let ids = try results.flatMap { try $0.get() }
        #expect(Set(ids).count == 40)
        #expect(try fixture.notes().count == 40)
        #expect(try fixture.notes().map(\.id) == ids.sorted { Int($0)! > Int($1)! })
    }

    @Test("Concurrent adds never exceed the quota")
    func quotaUnderRace() throws {
        let fixture = try LegacyFixture(quota: 3)
        let port = fixture.server.port
        let body = FormEncoding.encode(
            fixture.credentials
                + parameters(["action": "add", "date": "2026-11-29", "content": "race"]))
        let request =
            "POST /mynotes/webservice.php HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let results = Self.concurrently(12) { _ in
            try RawHTTPClient(port: port).send(request).resultCode
        }
        let codes = try results.map { try $0.get() }
        #expect(codes.filter { $0 == 0 }.count == 3)
        #expect(codes.filter { $0 == -2 }.count == 9)
        #expect(try fixture.notes().count == 3)
    }
}

/// Values appended from many threads.
private final class Collected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []

    func append(_ value: Value) { lock.withLock { stored.append(value) } }
    var values: [Value] { lock.withLock { stored } }
}
