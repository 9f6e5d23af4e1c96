import Foundation
import MyNotesTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The database's file system turns read-only, as one does after an
/// I/O error (`errors=remount-ro`). Linux will not remount a file system read-only while a
/// process holds files on it open for writing (EBUSY), so the server meets it as it
/// restarts after a crash: reads work, writes fail cleanly with the protocol's code, and
/// once the file system is writable again the writes succeed, without a restart.
@Suite(.enabled(if: TmpfsMount.unavailable == nil, "\(TmpfsMount.unavailable ?? "")"))
struct ReadOnlyTests {
    @Test func readsWorkWritesFailCleanlyAndRecoverWhenWritableAgain() async throws {
        let disk = try TmpfsMount(kibibytes: 4_096)
        defer { disk.unmount() }
        let rig = try FaultRig(folder: disk.folder.appendingPathComponent("data"))
        let crashed = try rig.start()
        let client = try RawHTTPClient(port: crashed.port)
        let before = rig.add("before", on: client, port: crashed.port)
        #expect(before.code == 0, "\(before)")
        // A crash leaves the WAL and its index beside the database, which reading needs.
        crashed.stop(signal: SIGKILL)

        // Given the file system read-only when the server starts
        try disk.remount(.readOnly)
        let server = try rig.start()
        defer { server.stop(signal: SIGTERM) }
        let reader = try RawHTTPClient(port: server.port)
        func add(_ content: String) -> Int? { rig.add(content, on: reader, port: server.port).code }

        // Then reads work, and writes fail with the protocol's data-access code
        #expect(try rig.query(port: server.port).get() == ["before"])
        #expect(add("refused") == -3)
        let body = #"{"content": "refused too"}"#
        let rest = try reader.send(
            "POST /api/v1/notes HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
                + "Authorization: Bearer \(rig.token)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(rest.status == 500)
        #expect(rest.text.contains(#""code":-3"#))

        // And once the file system is writable again, the next write succeeds
        try disk.remount(.readWrite)
        #expect(add("after") == 0)
        #expect(try rig.query(port: server.port).get() == ["before", "after"])
        #expect(server.stop(signal: SIGTERM) == 0)
        #expect(try await rig.inspect().integrity == ["ok"])
    }
}
