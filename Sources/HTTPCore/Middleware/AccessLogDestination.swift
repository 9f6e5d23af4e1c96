/// Where the access log goes: `--access-log PATH` or `--access-log -`.
public enum AccessLogDestination: Sendable, Equatable {
    case standardOutput
    /// A file, appended to, created with mode 0640; reopened by ``AccessLogWriter/reopen()``
    /// after logrotate moved it.
    case file(path: String)

    /// `-` is standard output, anything else a path.
    public init(argument: String) {
        self = argument == "-" ? .standardOutput : .file(path: argument)
    }
}
