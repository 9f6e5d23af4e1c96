import MyNotesDomain

extension DoctorFinding {
    /// What `doctor` says of a schema whose recorded migrations are `applied` (`nil`: no
    /// `schema_migrations` table yet), against the `known` ones of this build, in order.
    ///
    /// ```swift
    /// DoctorFinding.schema(applied: ["a", "b"], known: ["a", "b", "c"])
    /// // [warning: schema is behind, serve will apply: c]
    /// ```
    package static func schema(applied: Set<String>?, known: [String]) -> [DoctorFinding] {
        guard let applied else {
            return [
                DoctorFinding(
                    .warning,
                    "no schema_migrations table: not yet opened by this version (serve migrates it)"
                )
            ]
        }
        let missing = known.filter { !applied.contains($0) }
        let unknown = applied.subtracting(known).sorted()
        var findings: [DoctorFinding] = []
        if !unknown.isEmpty {
            findings.append(
                DoctorFinding(
                    .problem,
                    "schema has migrations this version does not know (a newer server made it): "
                        + unknown.joined(separator: ", ")))
        }
        if !missing.isEmpty {
            findings.append(
                DoctorFinding(
                    .warning,
                    "schema is behind, serve will apply: " + missing.joined(separator: ", ")))
        }
        if findings.isEmpty {
            let count = known.count == 1 ? "1 migration" : "\(known.count) migrations"
            findings.append(
                DoctorFinding(.ok, "schema up to date (\(count), last \(known.last ?? "-"))"))
        }
        return findings
    }
}
