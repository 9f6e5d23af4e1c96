import CommandLineSupport
import Foundation
import Testing

/// The prompt's input that is not a terminal: the lines of a pipe, or a clear failure.
@Suite struct SecretPromptTests {
    /// A pipe holding `text`, its write end closed: the prompt sees `text`, then the end.
    func pipe(holding text: String) throws -> FileHandle {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(text.utf8))
        try pipe.fileHandleForWriting.close()
        return pipe.fileHandleForReading
    }

    @Test(arguments: [
        ("secret 1\nrest\n", "secret 1"), ("secret 2\r\n", "secret 2"),
        ("no newline", "no newline"),
        ("\n", ""),
    ])
    func readsTheFirstLineOfAPipe(input: String, expected: String) throws {
        let handle = try pipe(holding: input)
        let prompt = SecretPrompt(input: handle.fileDescriptor)
        #expect(try prompt.readSecret(prompt: "Token: ", naming: "token") == expected)
    }

    @Test func leavesTheNextLineForTheNextRead() throws {
        let handle = try pipe(holding: "one\ntwo\n")
        let prompt = SecretPrompt(input: handle.fileDescriptor)
        #expect(try prompt.password(for: "a@x") == "one")
        #expect(try prompt.password(for: "a@x") == "two")
        #expect(throws: CommandFailure("no password on standard input")) {
            try prompt.password(for: "a@x")
        }
        #expect(try prompt.readSecret(prompt: "", naming: "token") == nil)
    }

    @Test func failsWhenTheInputIsNeitherATerminalNorLines() throws {
        let null = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/null"))
        let prompt = SecretPrompt(input: null.fileDescriptor)
        #expect(
            throws: CommandFailure(
                "cannot ask for the password without echo: standard input is not a terminal, "
                    + "a pipe or a file (Inappropriate ioctl for device)")
        ) { try prompt.newPassword(for: "a@x") }
        #expect(throws: CommandFailure.self) { try SecretPrompt(input: -1).password(for: "a@x") }
    }
}
