import Foundation
import MyNotesTesting
import Testing

/// Files that `scripts/fuzz.sh` found crashing `mynotes import`, each now a clear failure.
@Suite("mynotes import: inputs found by fuzzing")
struct ImportFuzzRegressionTests {
    /// FoundationXML traps on an element name that is not UTF-8, and dereferences NULL on a
    /// processing instruction without data (notes-file, 2026-12-01).
    @Test(
        "A Notes.xml that XMLParser would crash on fails with a message",
        arguments: [
            (Array("<Notes><N".utf8) + [0xFF] + Array("ote/></Notes>".utf8), "not UTF-8"),
            (Array("<Notes><Note id=\"1\"><?x?></Note></Notes>".utf8), "processing instruction"),
        ])
    func xmlThatWouldCrashTheParser(file bytes: [UInt8], message: String) async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        defer { cli.remove() }
        let file = cli.home.appendingPathComponent("Notes.xml")
        try Data(bytes).write(to: file)
        let output = await cli.run(["import", file.path])
        #expect(output.status == 1, "\(output.stderr)")
        #expect(output.stderr.contains(message), "\(output.stderr)")
    }
}
