import MyNotesDomain

/// One thing `mynotes-server doctor` found about a database.
///
/// ```swift
/// DoctorFinding(.problem, "integrity_check: row 3 missing from index notes_by_account")
/// ```
public struct DoctorFinding: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable, Comparable {
        case ok, warning, problem

        public static func < (left: Severity, right: Severity) -> Bool {
            let order: [Severity] = [.ok, .warning, .problem]
            return order.firstIndex(of: left)! < order.firstIndex(of: right)!
        }
    }

    public var severity: Severity
    public var message: String

    public init(_ severity: Severity, _ message: String) {
        self.severity = severity
        self.message = message
    }

    /// `ok: …`, `warning: …` or `problem: …`.
    public var description: String { "\(severity.rawValue): \(message)" }
}
