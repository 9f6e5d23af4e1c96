/// Writes the Prometheus text exposition format: a family's `# HELP` and `# TYPE`
/// lines, then its samples, with label values escaped.
///
/// ```swift
/// var text = MetricsText()
/// text.family("jobs_total", type: .counter, help: "Jobs run.")
/// text.sample("jobs_total", ["queue": "read"], value: 3)
/// // # HELP jobs_total Jobs run.
/// // # TYPE jobs_total counter
/// // jobs_total{queue="read"} 3
/// ```
public struct MetricsText: Sendable {
    public private(set) var text = ""

    public init() {}

    public mutating func family(_ name: String, type: MetricType, help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(type.rawValue)\n"
    }

    public mutating func sample(
        _ name: String, _ labels: KeyValuePairs<String, String> = [:], value: Int
    ) {
        line(name, labels.map { ($0.key, $0.value) }, String(value))
    }

    public mutating func sample(
        _ name: String, _ labels: KeyValuePairs<String, String> = [:], value: Double
    ) {
        line(name, labels.map { ($0.key, $0.value) }, Self.format(value))
    }

    /// A histogram's `_bucket`, `_sum` and `_count` samples, under `labels`.
    public mutating func histogram(
        _ name: String, _ labels: [(String, String)] = [], _ snapshot: HistogramSnapshot
    ) {
        for (index, count) in snapshot.cumulativeCounts.enumerated() {
            let bound =
                index < snapshot.upperBounds.count
                ? Self.format(snapshot.upperBounds[index]) : "+Inf"
            line(name + "_bucket", labels + [("le", bound)], String(count))
        }
        line(name + "_sum", labels, Self.format(snapshot.sum))
        line(name + "_count", labels, String(snapshot.count))
    }

    /// One sample line with labels given in order.
    public mutating func line(_ name: String, _ labels: [(String, String)], _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{"
            for (index, (key, labelValue)) in labels.enumerated() {
                if index > 0 { text += "," }
                text += key + "=\"" + Self.escapeLabel(labelValue) + "\""
            }
            text += "}"
        }
        text += " " + value + "\n"
    }

    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    static func escapeLabel(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static func escapeHelp(_ value: String) -> String {
        value.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
    }
}
