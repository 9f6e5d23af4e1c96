import Foundation
import MyNotesTesting
import Testing

/// `/metrics` read by real consumers after known traffic: promtool's checker and
/// prometheus-client's parser.
@Suite struct MetricsScrapeTests {
    @Test(
        .enabled(if: Tools.find("promtool") != nil, "promtool: scripts/operations-tools.sh"),
        .enabled(if: Tools.python != nil, "prometheus-client: scripts/operations-tools.sh"))
    func aScrapeAfterKnownTrafficCountsIt() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let token = try fixture.createAccount("ann@example.com")
        let server = try ServerProcess(
            database: fixture.location, arguments: ["--metrics-listen", "127.0.0.1:0"])
        defer { server.stop(signal: SIGTERM) }
        let metricsLine = server.nextLine()
        let metricsPort = try #require(
            metricsLine.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) },
            "no metrics line: \(metricsLine)")

        for _ in 0..<3 { #expect(try httpRequest(port: server.port, "/healthz").status == 200) }
        for _ in 0..<2 { #expect(try httpRequest(port: server.port, "/nowhere").status == 404) }
        #expect(try httpRequest(port: server.port, "/healthz", method: "POST").status == 405)
        for index in 0..<4 {
            let add = try httpRequest(
                port: server.port, "/mynotes/webservice.php", method: "POST",
                body: "email=ann@example.com&token=\(token)&action=add&date=2026-12-01"
                    + "&content=note+\(index)")
            #expect(add.text.contains(#""ResultCode":0"#))
        }
        // Not on the public listener when it has a listener of its own.
        #expect(try httpRequest(port: server.port, "/metrics").status == 404)

        let scrape = try httpRequest(port: metricsPort, "/metrics")
        #expect(scrape.status == 200)
        #expect(scrape.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let check = try Tools.run("promtool", ["check", "metrics"], input: scrape.text)
        #expect(check.status == 0, "promtool: \(check.standardOutput)\(check.standardError)")

        let samples = try Tools.parseExposition(scrape.text)
        func requests(_ route: String, _ method: String, _ status: Int) -> Double? {
            samples[
                #"mynotes_http_requests_total{method="\#(method)",route="\#(route)",status="\#(status)"}"#
            ]
        }
        #expect(requests("/healthz", "GET", 200) == 3)
        #expect(requests("/healthz", "POST", 405) == 1)
        // The two, and /metrics asked of the main listener.
        #expect(requests("unmatched", "GET", 404) == 3)
        #expect(requests("/mynotes/webservice.php", "POST", 200) == 4)
        #expect(samples[#"mynotes_http_request_duration_seconds_count{route="/healthz"}"#] == 4)
        #expect(
            samples[#"mynotes_http_request_duration_seconds_bucket{le="+Inf",route="/healthz"}"#]
                == 4)
        // Exactly the four adds were committed, in one batch or more.
        #expect(samples["mynotes_store_commit_batch_size_sum"] == 4)
        let batches = try #require(samples["mynotes_store_commit_batch_size_count"])
        #expect(batches >= 1 && batches <= 4)
        #expect(samples["mynotes_store_commit_duration_seconds_count"] == batches)
        #expect(samples[#"mynotes_store_queue_wait_seconds_count{queue="write"}"#] == 4)
        #expect((samples[#"mynotes_store_queue_wait_seconds_count{queue="read"}"#] ?? 0) >= 4)
        #expect(samples[#"mynotes_store_queue_depth{queue="write"}"#] == 0)
        // The four adds wait for the search index, or its batches have taken them in.
        let waiting = try #require(samples["mynotes_search_index_waiting_notes"])
        #expect(waiting >= 0 && waiting <= 4)
        #expect((samples["mynotes_search_index_batch_size_sum"] ?? -1) <= 4)
        #expect(samples["mynotes_http_connections_refused_total"] == 0)
        #expect(samples["mynotes_http_streams_open"] == 0)
        #expect((samples["process_resident_memory_bytes"] ?? 0) > 1_000_000)
        #expect((samples["process_open_fds"] ?? 0) >= 4)
        #expect((samples["process_cpu_seconds_total"] ?? 0) > 0)
        let started = try #require(samples["process_start_time_seconds"])
        #expect(abs(started - Date().timeIntervalSince1970) < 600)
    }

    @Test func onTheMainListenerMetricsNeedTheToken() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let secret = "metrics-token-0123456789"
        let server = try ServerProcess(
            database: fixture.location, arguments: ["--metrics-token", secret])
        defer { server.stop(signal: SIGTERM) }
        let refused = try httpRequest(port: server.port, "/metrics")
        #expect(refused.status == 401)
        #expect(!refused.text.contains("mynotes_"))
        let wrong = try httpRequest(
            port: server.port, "/metrics", headers: ["Authorization": "Bearer metrics-token-x"])
        #expect(wrong.status == 401)
        let scrape = try httpRequest(
            port: server.port, "/metrics", headers: ["Authorization": "Bearer \(secret)"])
        #expect(scrape.status == 200)
        #expect(
            scrape.text.contains(
                #"mynotes_http_requests_total{route="/metrics",method="GET",status="401"} 2"#))
    }

    @Test(arguments: [
        (["--metrics-token", "short"], "at least 16"),
        (["--metrics-listen", "nowhere"], "HOST:PORT"),
        (["--metrics-listen", "127.0.0.1:1", "--metrics-token", "0123456789abcdef"], "exclude"),
        (["--tls-cert", "a.pem"], "go together"),
        (["--redirect-http", "8080"], "needs '--tls-cert'"),
    ])
    func badOperationsFlagsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try CommandRunner.run("mynotes-server", ["serve"] + arguments)
        #expect(result.status == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }
}
