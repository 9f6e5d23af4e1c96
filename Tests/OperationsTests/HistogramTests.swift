import Telemetry
import Testing

@Suite struct HistogramTests {
    @Test(arguments: [
        (value: 1, bucket: 0), (value: 2, bucket: 1), (value: 3, bucket: 2),
        (value: 4096, bucket: 12), (value: 4097, bucket: 13),
    ])
    func aValueFallsInTheFirstBucketItFits(value: Int, bucket: Int) {
        let histogram = Histogram.sizes
        histogram.observe(value)
        let snapshot = histogram.snapshot()
        let before = bucket == 0 ? 0 : snapshot.cumulativeCounts[bucket - 1]
        #expect(before == 0)
        #expect(snapshot.cumulativeCounts[bucket] == 1)
        #expect(snapshot.count == 1)
        #expect(snapshot.sum == Double(value))
    }

    @Test func durationsAreExposedInSeconds() {
        let histogram = Histogram.latency
        histogram.observe(.milliseconds(3))
        histogram.observe(.milliseconds(30))
        let snapshot = histogram.snapshot()
        #expect(snapshot.upperBounds.first == 0.0005)
        #expect(abs(snapshot.sum - 0.033) < 1e-9)
        #expect(snapshot.count == 2)
    }

    @Test func concurrentObservationsAreAllCounted() async {
        let histogram = Histogram.sizes
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for value in 1...1_000 { histogram.observe(value) } }
            }
        }
        let snapshot = histogram.snapshot()
        #expect(snapshot.count == 8_000)
        #expect(snapshot.sum == Double(8 * 500_500))
    }
}

@Suite struct MetricsTextTests {
    @Test func labelValuesAreEscaped() {
        var text = MetricsText()
        text.family("x_total", type: .counter, help: "An x.\nTwo lines.")
        text.sample("x_total", ["path": "a\"b\\c\nd"], value: 3)
        #expect(
            text.text == """
                # HELP x_total An x.\\nTwo lines.
                # TYPE x_total counter
                x_total{path="a\\"b\\\\c\\nd"} 3

                """)
    }

    @Test func aHistogramHasCumulativeBucketsSumAndCount() {
        let histogram = Histogram(bounds: [1, 10])
        histogram.observe(1)
        histogram.observe(5)
        histogram.observe(50)
        var text = MetricsText()
        text.histogram("h", [("queue", "read")], histogram.snapshot())
        #expect(
            text.text == """
                h_bucket{queue="read",le="1"} 1
                h_bucket{queue="read",le="10"} 2
                h_bucket{queue="read",le="+Inf"} 3
                h_sum{queue="read"} 56
                h_count{queue="read"} 3

                """)
    }
}
