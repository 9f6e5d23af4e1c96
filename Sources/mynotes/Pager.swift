import CommandLineSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Long output on a terminal goes through a pager, as git does: `$PAGER`, else
/// `less` with `LESS=FRX` (quit if it fits, keep colour, leave the text on screen).
/// Output that fits the terminal, output to a pipe or a file, and `PAGER=` or
/// `PAGER=cat` are written directly.
enum Pager {
    static func write(_ text: String, in context: CommandContext) {
        guard context.standardOutputIsTerminal, let rows = context.outputHeight,
            text.reduce(0, { $1 == "\n" ? $0 + 1 : $0 }) >= rows,
            let command = command(context.environment),
            show(text, through: command, environment: context.environment)
        else {
            context.write(text)
            return
        }
    }

    private static func command(_ environment: [String: String]) -> String? {
        let chosen = environment["PAGER"] ?? "less"
        let trimmed = chosen.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
    }

    /// Runs `command` through `/bin/sh` with `text` on its standard input; false when it
    /// could not be started (the text is then written directly).
    private static func show(_ text: String, through command: String, environment: [String: String])
        -> Bool
    {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        var variables = environment
        if variables["LESS"] == nil { variables["LESS"] = "FRX" }
        let words: [String] = ["/bin/sh", "-c", command]
        let argv = words.map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let started = posix_spawn(&child, "/bin/sh", &actions, nil, argv, envp) == 0
        close(ends[0])
        guard started else {
            close(ends[1])
            return false
        }
        // Quitting the pager early closes the pipe: the rest is not wanted, not an error.
        signal(SIGPIPE, SIG_IGN)
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.write(ends[1], $0.baseAddress, $0.count)
            }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { break }
            offset += written
        }
        close(ends[1])
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1, errno == EINTR {}
        return true
    }
}
