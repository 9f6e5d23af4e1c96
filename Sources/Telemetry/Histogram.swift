import Synchronization

/// A Prometheus histogram with fixed buckets: observing is a short scan of the bounds
/// and two relaxed atomic additions, with no lock and no allocation.
///
/// Values are integers in the histogram's raw unit (nanoseconds for
/// ``latency``, items for ``sizes``); ``unitsPerValue`` converts them for the
/// exposition (1e9 nanoseconds a second).
///
/// ```swift
/// let latency = Histogram.latency
/// latency.observe(.milliseconds(3))
/// latency.snapshot().count  // 1
/// ```
public final class Histogram: Sendable {
    /// Upper bounds of the buckets, ascending, in the raw unit; +Inf follows implicitly.
    public let bounds: [Int]
    /// Raw units per exposed unit: 1e9 for seconds observed in nanoseconds.
    public let unitsPerValue: Double
    private let buckets: AtomicCounters
    private let sum = Atomic<Int>(0)

    public init(bounds: [Int], unitsPerValue: Double = 1) {
        self.bounds = bounds.sorted()
        self.unitsPerValue = unitsPerValue
        buckets = AtomicCounters(count: bounds.count + 1)
    }

    /// Durations, observed in nanoseconds and exposed in seconds: 0.5 ms to 10 s.
    public static var latency: Histogram {
        let milliseconds = [0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000]
        return Histogram(bounds: milliseconds.map { Int($0 * 1e6) }, unitsPerValue: 1e9)
    }

    /// Counts of things (a commit's batch): powers of two up to 4,096.
    public static var sizes: Histogram {
        Histogram(bounds: (0...12).map { 1 << $0 })
    }

    @inline(__always)
    public func observe(_ value: Int) {
        var index = 0
        while index < bounds.count, value > bounds[index] { index += 1 }
        buckets.add(1, at: index)
        sum.add(value, ordering: .relaxed)
    }

    public func observe(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        observe(Int(seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000))
    }

    /// Cumulative counts per bucket, as the exposition format wants them.
    public func snapshot() -> HistogramSnapshot {
        var cumulative: [Int] = []
        cumulative.reserveCapacity(buckets.count)
        var total = 0
        for index in 0..<buckets.count {
            total += buckets.load(at: index)
            cumulative.append(total)
        }
        return HistogramSnapshot(
            upperBounds: bounds.map { Double($0) / unitsPerValue }, cumulativeCounts: cumulative,
            sum: Double(sum.load(ordering: .relaxed)) / unitsPerValue)
    }
}

/// A histogram's state at one moment: cumulative bucket counts (the last is +Inf).
public struct HistogramSnapshot: Sendable, Equatable {
    public var upperBounds: [Double]
    public var cumulativeCounts: [Int]
    public var sum: Double
    public var count: Int { cumulativeCounts.last ?? 0 }
}
