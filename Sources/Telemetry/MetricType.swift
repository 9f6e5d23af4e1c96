/// The `# TYPE` of a metric family in the Prometheus text format.
public enum MetricType: String, Sendable {
    case counter, gauge, histogram
}
