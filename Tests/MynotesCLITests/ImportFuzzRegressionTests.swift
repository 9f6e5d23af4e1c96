import Foundation
import MyNotesTesting
import Testing

/// Files that `scripts/fuzz.sh` found crashing `mynotes import`, each now a clear failure.
@Suite("mynotes import: inputs found by fuzzing")
struct ImportFuzzRegressionTests {
    /// FoundationXML traps on an element name that is not UTF-8 (notes-file, 2026-12-01).
    @Test("A Notes.xml that is not UTF-8 fails with a message, not a crash")
    func xmlThatIsNotUTF8() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        defer { cli.remove() }
        let file = cli.home.appendingPathComponent("Notes.xml")
        try Data(Array("<Notes><N".utf8) + [0xFF] + Array("ote/></Notes>".utf8)).write(to: file)
        let output = await cli.run(["import", file.path])
        #expect(output.status == 1, "\(output.stderr)")
        #expect(output.stderr.contains("not UTF-8"), "\(output.stderr)")
    }
}
