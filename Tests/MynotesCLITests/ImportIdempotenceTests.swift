import Foundation
import MyNotesKit
import MyNotesTesting
import Testing

/// An import skips what it cannot import and says why, over either
/// API; importing the same file again adds nothing; a corrected file adds only what is new.
@Suite("mynotes import: refusals, bad dates and importing again")
struct ImportIdempotenceTests {
    /// `m5.xml`: the second note has an empty `<Content>`.
    static let m5 = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Notes>
          <Note id="1"><CDate>2020-01-01</CDate><Content>one</Content></Note>
          <Note id="2"><CDate>2020-01-02</CDate><Content></Content></Note>
          <Note id="3"><CDate>2020-01-03</CDate><Content>three</Content></Note>
        </Notes>
        """

    static func contents(_ server: TestServer, _ cli: CLI) async throws -> [String] {
        try await ImportExportTests.notes(server, cli).map(\.content)
    }

    @Test(
        "mynotes import m5.xml: the refused note is listed and skipped, over either API",
        arguments: ["legacy", "rest"])
    func refusedNoteIsSkipped(api: String) async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        var cli = try CLI.account(on: server)
        defer { cli.remove() }
        cli.environment["MYNOTES_API"] = api
        let file = try cli.write(Self.m5, to: "m5.xml")

        let first = await cli.run(["import", "m5.xml"], workingIn: cli.home)
        #expect(first.status == 1)
        #expect(first.stdout == "Imported 2 notes from m5.xml.\n")
        let reason = api == "rest" ? "Field 'content' must not be empty." : "No content was given."
        #expect(first.stderr.contains("note ID 2: \(reason)\n"), "\(first.stderr)")
        #expect(try await Self.contents(server, cli) == ["three", "one"])

        // Run again: nothing is added twice, the refused note is still named
        let again = await cli.run(["import", file.path])
        #expect(again.status == 1)
        #expect(
            again.stdout
                == "Imported 0 notes from \(file.path) (2 already imported by an earlier import).\n"
        )
        #expect(again.stderr.contains("note ID 2: \(reason)\n"))
        #expect(try await Self.contents(server, cli) == ["three", "one"])
    }

    @Test("A U+0001 in a JSON note over REST: that note is skipped, the others imported")
    func controlCharacterOverREST() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        var cli = try CLI.account(on: server)
        defer { cli.remove() }
        cli.environment["MYNOTES_API"] = "rest"
        let file = try cli.write(
            #"[{"ID":1,"CDate":"2020-01-01","Content":"a"},{"ID":2,"CDate":"2020-01-02","Content":"b\u0001"},{"ID":3,"CDate":"2020-01-03","Content":"c"}]"#,
            to: "Notes.json")
        let output = await cli.run(["import", file.path])
        #expect(output.status == 1)
        #expect(output.stdout == "Imported 2 notes from \(file.path).\n")
        #expect(output.stderr.contains("note ID 2: "))
        #expect(try await Self.contents(server, cli) == ["c", "a"])
    }

    @Test("Every bad date is named by the file's ID in one run, and the good notes go in")
    func everyBadDateInOneRun() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        defer { cli.remove() }
        var notes = ""
        for id in 1...7 {
            let date = id.isMultiple(of: 2) || id == 7 ? "12/2\(id)/2012" : "2012-12-0\(id)"
            notes += "<Note id=\"\(id)\"><CDate>\(date)</CDate><Content>n\(id)</Content></Note>\n"
        }
        let file = try cli.write("<Notes>\n\(notes)</Notes>\n", to: "dates.xml")
        let output = await cli.run(["import", file.path])
        #expect(output.status == 1)
        #expect(output.stdout == "Imported 3 notes from \(file.path).\n")
        #expect(
            output.stderr.hasSuffix(
                """
                note ID 2: CDate '12/22/2012' is not yyyy-MM-dd[ HH:mm[:ss]]
                note ID 4: CDate '12/24/2012' is not yyyy-MM-dd[ HH:mm[:ss]]
                note ID 6: CDate '12/26/2012' is not yyyy-MM-dd[ HH:mm[:ss]]
                note ID 7: CDate '12/27/2012' is not yyyy-MM-dd[ HH:mm[:ss]]
                mynotes: 4 notes could not be imported; fix them in the file and import it \
                again (what is in already is not added twice).

                """), "\(output.stderr)")
        #expect(try await Self.contents(server, cli) == ["n5", "n3", "n1"])

        // The corrected file adds only the four that were missing
        let fixed = try cli.write(
            "<Notes>\n"
                + notes.replacingOccurrences(
                    of: #"12/2(\d)/2012"#, with: "2012-12-2$1", options: .regularExpression)
                + "</Notes>\n", to: "dates.xml")
        let corrected = await cli.run(["import", fixed.path])
        #expect(corrected.status == 0, "\(corrected.stderr)")
        #expect(
            corrected.stdout
                == "Imported 4 notes from \(fixed.path) (3 already imported by an earlier import).\n"
        )
        #expect(
            try await Self.contents(server, cli) == ["n7", "n6", "n4", "n2", "n5", "n3", "n1"])
    }

    @Test("Importing the same file again adds nothing and says so; --again imports it again")
    func sameFileTwice() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        defer { cli.remove() }
        let text =
            #"[{"ID":1,"CDate":"2020-01-01","Content":"a"},{"ID":2,"CDate":"2020-01-02","Content":"b"}]"#
        let file = try cli.write(text, to: "Notes.json")
        let first = await cli.run(["import", file.path])
        #expect(first.status == 0)
        #expect(first.stdout == "Imported 2 notes from \(file.path).\n")

        // The same content under another name is the same import
        let copy = try cli.write(text, to: "copy.json")
        for path in [file.path, copy.path] {
            let again = await cli.run(["import", path])
            #expect(again.status == 0)
            #expect(
                again.stdout
                    == "Nothing to import: the 2 notes of \(path) were imported already "
                    + "(--again imports them again).\n")
        }
        #expect(try await Self.contents(server, cli) == ["b", "a"])

        // The journal is named after the file's SHA-256
        let journals = try FileManager.default.contentsOfDirectory(
            atPath: cli.home.appendingPathComponent("state/mynotes/imports").path)
        let digest = await Self.sha256(of: file)
        #expect(journals.count == 1)
        #expect(journals.first?.hasSuffix("-\(digest).journal") == true, "\(journals) \(digest)")

        let forced = await cli.run(["import", file.path, "--again"])
        #expect(forced.status == 0)
        #expect(forced.stdout == "Imported 2 notes from \(file.path).\n")
        #expect(try await Self.contents(server, cli) == ["b", "b", "a", "a"])
    }

    /// The file's digest by coreutils, independently of the CLI's own SHA-256.
    static func sha256(of file: URL) async -> String {
        let output = await CLI().run(
            [file.path], executable: URL(fileURLWithPath: "/usr/bin/sha256sum"))
        return String(output.stdout.prefix(64))
    }

    @Test("A note longer than the server takes is named before it is sent, over the legacy API")
    func tooLongNoteInAFile() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        defer { cli.remove() }
        let long = String(repeating: "x", count: 70_000)
        let file = try cli.write(
            #"[{"ID":1,"CDate":"2020-01-01","Content":"short"},{"ID":2,"CDate":"2020-01-02","Content":"\#(long)"}]"#,
            to: "Notes.json")
        let output = await cli.run(["import", file.path])
        #expect(output.status == 1)
        #expect(
            output.stderr.contains(
                "note ID 2: the note is 70,000 bytes long; the server takes at most 65,536 bytes (UTF-8)\n"
            ))
        #expect(try await Self.contents(server, cli) == ["short"])
    }
}
