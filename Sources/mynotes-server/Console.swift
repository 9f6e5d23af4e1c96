import Foundation

/// Lines for the operator: results on stdout, problems on stderr, each flushed at
/// once so that a process reading our output sees the ready line immediately.
enum Console {
    static func output(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
