import Foundation
import MyNotesTesting
import Testing

/// Text from a server reaches a person's terminal escaped: anything printed to a terminal
/// escapes control characters. The MyNotes server refuses such
/// notes, so a peer that answers like a hostile server sends them; it lives here, beside
/// the SDK's other misbehaving peers, and the `mynotes` binary runs on a pseudo-terminal.
@Suite struct TerminalEscapingTests {
    static let hostile =
        #"{"ResultCode":0,"Record":[{"ID":"1","CDate":"2026-01-01","Content":"red \u001b[31m alert\u0007\nline two\u001b]0;owned\u0007"}]}"#

    static func answer(_ body: String) -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)"
            + "\r\nConnection: close\r\n\r\n" + body
    }

    static func environment(_ peer: LoopbackPeer) -> [String: String] {
        [
            "PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LANG": "en_US.UTF-8",
            "NO_COLOR": "1", "MYNOTES_SERVER": peer.url.absoluteString,
            "MYNOTES_EMAIL": "ann@example.com",
        ]
    }

    @Test("show and list escape a server's control characters on a terminal")
    func escapedOnATerminal() async throws {
        let peer = LoopbackPeer(.answer(Self.answer(Self.hostile)))
        defer { peer.stop() }
        let show = try PseudoTerminal(
            "mynotes", ["show", "1"], environment: Self.environment(peer))
        let shown = await show.finish()
        #expect(shown.status == 0, "\(shown.output)")
        #expect(!shown.output.contains("\u{1B}"))
        #expect(!shown.output.contains("\u{7}"))
        // The terminal turns "\n" into "\r\n"; the note's own line break stays one.
        #expect(
            shown.output.hasSuffix(
                "red \\u{1B}[31m alert\\u{7}\r\nline two\\u{1B}]0;owned\\u{7}\r\n"))

        let list = try PseudoTerminal("mynotes", ["list"], environment: Self.environment(peer))
        let listed = await list.finish()
        #expect(!listed.output.contains("\u{1B}"))
        #expect(listed.output.contains("red \\u{1B}[31m alert\\u{7}↵line two"))
    }

    @Test("In a pipe the note's text is exact")
    func exactInAPipe() throws {
        let peer = LoopbackPeer(.answer(Self.answer(Self.hostile)))
        defer { peer.stop() }
        let result = try CommandRunner.run(
            "mynotes", ["show", "1"], environment: Self.environment(peer))
        #expect(result.status == 0)
        #expect(
            result.standardOutput.hasSuffix(
                "red \u{1B}[31m alert\u{7}\nline two\u{1B}]0;owned\u{7}\n"))
    }

    @Test("A server's message in an error is escaped on a terminal")
    func errorMessageEscaped() async throws {
        let body = #"{"ResultCode":-42,"Message":"bad \u001b[2J news"}"#
        let peer = LoopbackPeer(.answer(Self.answer(body)))
        defer { peer.stop() }
        let terminal = try PseudoTerminal("mynotes", ["list"], environment: Self.environment(peer))
        let (status, output) = await terminal.finish()
        #expect(status == 1)
        #expect(output.contains("mynotes: bad \\u{1B}[2J news"), "\(output)")
        #expect(!output.contains("\u{1B}"))
    }
}
