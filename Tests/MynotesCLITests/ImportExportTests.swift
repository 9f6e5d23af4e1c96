import Foundation
import MyNotesKit
import MyNotesTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `mynotes import` and `export` with the old app's files, big files and interruptions.
@Suite("mynotes import and export")
struct ImportExportTests {
    /// The notes of an account as (date, content), in the server's order.
    static func notes(_ server: TestServer, _ cli: CLI) async throws -> [Note] {
        let environment = cli.environment
        let client = NotesClient(
            server: server.baseURL,
            credentials: .token(
                email: environment["MYNOTES_EMAIL"]!, token: environment["MYNOTES_TOKEN"]!))
        return try await client.query()
    }

    static func pairs(_ notes: [Note]) -> [String] {
        notes.map { "\($0.date)|\($0.content)" }
    }

    @Test("Imports the old app's Notes.xml")
    func importXML() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        let file = try cli.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Notes>
              <Note id="1"><CDate>2012-03-04</CDate><Content>Old &amp; gold &lt;3</Content><UserID>ann@example.com</UserID></Note>
              <Note id="2"><CDate>2012-03-05 10:11:12</CDate><Content><![CDATA[raw <cdata> & more]]></Content><UserID>ann@example.com</UserID></Note>
              <Note id="3"><CDate>2012-03-05 10:11</CDate><Content>日本語
            second line&#13;</Content><UserID>ann@example.com</UserID></Note>
            </Notes>
            """, to: "Notes.xml")
        let output = await cli.run(["import", file.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "Imported 3 notes from \(file.path).\n")
        #expect(
            Self.pairs(try await Self.notes(server, cli)) == [
                "2012-03-05 10:11:12|raw <cdata> & more", "2012-03-05 10:11:00|日本語\nsecond line\r",
                "2012-03-04|Old & gold <3",
            ])
    }

    @Test(
        "Imports Notes.json, as {\"Record\":[…]} or a bare array, IDs as strings or numbers",
        arguments: [
            #"{"Record":[{"ID":"7","CDate":"2013-01-01","Content":"a \"quoted\" \\ \u00e9"},{"ID":8,"CDate":"2013-01-02 03:04:05","Content":"😀"}]}"#,
            #"[{"ID":7,"CDate":"2013-01-01","Content":"a \"quoted\" \\ é"},{"CDate":"2013-01-02 03:04:05","Content":"😀"}]"#,
        ])
    func importJSON(text: String) async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        let file = try cli.write(text, to: "Notes.json")
        let output = await cli.run(["import", file.path, "--style", "callback"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            Self.pairs(try await Self.notes(server, cli)) == [
                "2013-01-02 03:04:05|😀", "2013-01-01|a \"quoted\" \\ é",
            ])
    }

    @Test(
        "Export then import into another account round-trips exactly, over either API",
        arguments: ["json", "xml"], ["legacy", "rest"])
    func roundTrip(format: String, api: String) async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let ann = try CLI.account(on: server, email: "ann@example.com")
        var bob = try CLI.account(on: server, email: "bob@example.com")
        bob.environment["MYNOTES_API"] = api
        let contents = [
            "plain", "CRLF\r\nand CR\rand LF\n", "<xml> & \"json\" \\ ' ]]>", "😀👩‍👩‍👧 日本語 e\u{301}",
            "tab\there", "same moment 1", "same moment 2", "  spaces around  ",
        ]
        let dates = [
            "2020-01-01", "2020-01-01 00:00", "2021-06-15 12:30:45", "2019-12-31 23:59:59",
            "2020-01-01",
            "2022-02-02 02:02:02", "2022-02-02 02:02:02", "2018-07-07",
        ]
        for (content, date) in zip(contents, dates) {
            // `add -` drops the last line break of its input: one more keeps it.
            #expect(await ann.run(["add", "-", "--date", date], input: content + "\n").status == 0)
        }
        let exported = await ann.run(["export", "--format", format])
        #expect(exported.status == 0)
        let file = try bob.write(exported.stdout, to: "Notes.\(format)")

        let imported = await bob.run(["import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")

        let annNotes = try await Self.notes(server, ann)
        let bobNotes = try await Self.notes(server, bob)
        #expect(Self.pairs(bobNotes) == Self.pairs(annNotes))
        let reexported = await bob.run(["export", "--format", format])
        #expect(
            Self.withoutIDs(reexported.stdout)
                == Self.withoutIDs(exported.stdout).replacingOccurrences(of: "ann@", with: "bob@"))
    }

    static func withoutIDs(_ text: String) -> String {
        text.replacingOccurrences(of: #"id="\d+""#, with: "id=\"\"", options: .regularExpression)
            .replacingOccurrences(
                of: #""ID":\d+"#, with: "\"ID\":0", options: .regularExpression)
    }

    /// A big old-app file: dates spread over years with many ties, varied text.
    static func bigFile(count: Int) -> String {
        var records: [String] = []
        var state: UInt64 = 0x1234_5678
        for index in 1...count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let day = Int(state >> 33) % 3_000
            let date = NoteDate(
                Date(timeIntervalSince1970: 1_300_000_000 + Double(day) * 86_400),
                timeZone: TimeZone(identifier: "UTC")!)
            let cdate = index % 3 == 0 ? String(date.description.prefix(10)) : date.description
            let content =
                "note \(index) 笔记 \(state % 977) & more + %41 \(index % 7 == 0 ? "😀\r\nline" : "")"
            records.append(
                "{\"ID\":\"\(index)\",\"CDate\":\"\(cdate)\",\"Content\":\(NotesJSON.string(content))}"
            )
        }
        return "{\"Record\":[\n" + records.joined(separator: ",\n") + "\n]}\n"
    }

    @Test("Imports a 10,000-note file in seconds, every note exactly once, with progress lines")
    func tenThousand() async throws {
        let server = try TestServer(.init(threads: 4))
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        let text = Self.bigFile(count: 10_000)
        let file = try cli.write(text, to: "Notes.json")
        let clock = ContinuousClock()
        let start = clock.now
        let output = await cli.run(["import", file.path, "--jobs", "8"])
        let elapsed = clock.now - start
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "Imported 10000 notes from \(file.path).\n")
        #expect(output.stderr.contains("Imported 10000 of 10000 notes (100%)\n"))
        #expect(!output.stderr.contains("\r"))
        #expect(elapsed < .seconds(60), "took \(elapsed)")

        let expected = try Self.expectedPairs(text)
        #expect(Self.pairs(try await Self.notes(server, cli)) == expected)
    }

    @Test(
        "On a terminal, the progress is a bar redrawn in place",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressBarOnTerminal() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        let file = try cli.write(Self.bigFile(count: 300), to: "Notes.json")
        // script(1) gives the command a pseudo-terminal, as a person's shell would.
        let command = "\(CLI.executable.path) import \(file.path)"
        let output = await cli.run(
            ["-qec", command, "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.stdout.contains("\r██████████████████████████████ 300/300 100%"))
        #expect(output.stdout.contains("░"))
        #expect(!output.stdout.contains("Imported 300 of 300 notes"))
        #expect(output.stdout.contains("Imported 300 notes from \(file.path)."))
    }

    /// The server's order for a file's notes: newest first, ties by the file's ID, highest first.
    static func expectedPairs(_ text: String) throws -> [String] {
        let records =
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: [[String: String]]]
        let notes = records["Record"]!.map { record in
            (
                id: Int(record["ID"]!)!, date: NoteDate(record["CDate"]!)!,
                content: record["Content"]!
            )
        }
        return
            notes.sorted { lhs, rhs in
                if lhs.date < rhs.date || rhs.date < lhs.date { return rhs.date < lhs.date }
                return lhs.id > rhs.id
            }
            .map { "\($0.date)|\($0.content)" }
    }

    @Test("An interrupted import resumes without duplicating notes", arguments: [SIGKILL, SIGINT])
    func resume(signal: Int32) async throws {
        let server = try TestServer(.init(threads: 4))
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        let text = Self.bigFile(count: 3_000)
        let file = try cli.write(text, to: "Notes.json")
        let journals = cli.home.appendingPathComponent("state/mynotes/imports")

        // Given an import killed halfway (SIGKILL: no chance to clean up; SIGINT: Ctrl-C)
        let process = try cli.start(["import", file.path, "--jobs", "4"])
        // Watched from a thread of its own: other tests block the cooperative pool at
        // times, and a watcher that missed its turn would let the import finish first.
        let pid = process.processIdentifier
        let watched = await withCheckedContinuation {
            (done: CheckedContinuation<Result<Void, any Error>, Never>) in
            Thread {
                // The journal is another process's file: no event announces its lines.
                let watched = Result {
                    try Poll.until("500 notes done in the journal", timeout: .seconds(60)) {
                        Self.doneLines(in: journals) >= 500
                    }
                }
                kill(pid, signal)
                done.resume(returning: watched)
            }.start()
        }
        process.waitUntilExit()
        try watched.get()
        if signal == SIGINT { #expect(process.terminationStatus == 130) }
        let before = try await Self.notes(server, cli).count
        #expect(before >= 500)
        #expect(before < 3_000)

        // When it runs again
        let output = await cli.run(["import", file.path])

        // Then every note is there exactly once, in order, and the journal says it is done
        // (it used to be removed; it is kept so that importing again adds nothing)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("already imported before the interruption"))
        #expect(Self.pairs(try await Self.notes(server, cli)) == (try Self.expectedPairs(text)))
        #expect(Self.journalLines(in: journals).last == "finished")
    }

    static func journalLines(in directory: URL) -> [String] {
        let files =
            (try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: nil)) ?? []
        return files.flatMap { file in
            ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n")
                .map(String.init)
        }
    }

    static func doneLines(in directory: URL) -> Int {
        let files =
            (try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: nil)) ?? []
        return files.reduce(0) { total, file in
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            return total + text.split(separator: "\n").filter { $0.hasPrefix("done ") }.count
        }
    }

    @Test("Notes the server refuses are listed; the others are imported; exit 1")
    func refusedNotes() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        let file = try cli.write(
            #"[{"ID":1,"CDate":"2020-01-01","Content":"fine"},{"ID":2,"CDate":"2020-01-02","Content":"bell \u0007"},{"ID":3,"CDate":"2020-01-03","Content":""}]"#,
            to: "Notes.json")
        let output = await cli.run(["import", file.path])
        #expect(output.status == 1)
        #expect(output.stdout == "Imported 1 note from \(file.path).\n")
        #expect(
            output.stderr.hasSuffix(
                """
                note ID 2: Invalid parameter.
                note ID 3: No content was given.
                mynotes: 2 notes could not be imported; fix them in the file and import it \
                again (what is in already is not added twice).

                """))
        #expect(Self.pairs(try await Self.notes(server, cli)) == ["2020-01-01|fine"])
    }

    @Test(
        "Files that are not notes are refused with the reason, exit 1",
        arguments: [
            ("hello", "not a Notes.json or Notes.xml file"),
            ("{\"Record\":5}", "neither {\"Record\":[…]} nor an array"),
            (
                "[{\"CDate\":\"2020-13-01\",\"Content\":\"x\"}]",
                "note #1: CDate '2020-13-01' is not"
            ),
            ("<Notes><Note><CDate>2020-01-01</CDate></Note></Notes>", "note #1: no Content"),
            ("<Notes><Note>", "not valid XML"),
        ])
    func badFiles(text: String, message: String) async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        let file = try cli.write(text, to: "bad")
        let output = await cli.run(["import", file.path])
        #expect(output.status == 1)
        #expect(output.stderr.contains(message), "\(output.stderr)")
    }
}

/// JSON string literals for test files, written independently of the CLI's writer.
enum NotesJSON {
    static func string(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
