/// How a log line is written: for a person at a terminal, or for a machine.
///
/// ```swift
/// Logger(sink: .standardError, format: .json)  // what `--log-format json` runs with
/// ```
public enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-11-30T22:50:01.123Z error store failed request_id=… cause="…"`
    case text
    /// One JSON object a line: `{"time":…,"level":…,"message":…,"request_id":…}`.
    case json
}
