import Foundation
import MyNotesTesting
import Testing

/// deploy/: the systemd unit, the Prometheus scrape config and alert rules, checked by
/// the tools that will read them.
@Suite struct DeploymentFilesTests {
    static let deploy = Tools.packageRoot.appendingPathComponent("deploy")

    /// The unit with its ExecStart pointing at the built server, since verify checks that
    /// the program exists.
    func unit(in fixture: OperationsFixture, replacing: String? = nil, with: String = "")
        throws -> String
    {
        var text = try String(
            contentsOf: Self.deploy.appendingPathComponent("mynotes.service"), encoding: .utf8)
        text = text.replacingOccurrences(
            of: "/usr/local/bin/mynotes-server",
            with: CommandRunner.executable("mynotes-server").path)
        if let replacing { text = text.replacingOccurrences(of: replacing, with: with) }
        let path = fixture.path("mynotes.service")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(.enabled(if: Tools.find("systemd-analyze") != nil, "systemd-analyze is not installed"))
    func systemdAnalyzeVerifiesTheUnit() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let result = try Tools.run("systemd-analyze", ["verify", try unit(in: fixture)])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        // The check can fail: a misspelt setting is reported.
        let broken = try Tools.run(
            "systemd-analyze",
            [
                "verify",
                try unit(
                    in: fixture, replacing: "ProtectSystem=strict", with: "ProtectSystem=stricter"),
            ])
        #expect(broken.standardError.contains("stricter"))
        // systemd's own exposure score of the sandbox, in tenths: 15 (1.5 of 10, "OK")
        // when written; 20 at most.
        let security = try Tools.run(
            "systemd-analyze",
            ["security", "--offline=true", "--threshold=20", try unit(in: fixture)])
        #expect(security.status == 0, "\(security.standardOutput)")
    }

    @Test func theUnitIsSandboxedAndRunsAsItsOwnUser() throws {
        let text = try String(
            contentsOf: Self.deploy.appendingPathComponent("mynotes.service"), encoding: .utf8)
        for setting in [
            "Type=exec", "DynamicUser=yes", "StateDirectory=mynotes", "ProtectSystem=strict",
            "NoNewPrivileges=yes", "PrivateTmp=yes", "ExecReload=/bin/kill -HUP $MAINPID",
        ] {
            #expect(text.contains("\n" + setting + "\n"), "\(setting)")
        }
    }

    @Test(.enabled(if: Tools.find("promtool") != nil, "promtool: scripts/operations-tools.sh"))
    func promtoolAcceptsTheScrapeConfigAndAlertRules() throws {
        let rules = try Tools.run(
            "promtool",
            [
                "check", "rules",
                Self.deploy.appendingPathComponent("prometheus/mynotes-alerts.yml").path,
            ])
        #expect(rules.status == 0, "\(rules.standardOutput)\(rules.standardError)")
        #expect(rules.standardOutput.contains("SUCCESS: 9 rules found"))
        let config = try Tools.run(
            "promtool",
            [
                "check", "config",
                Self.deploy.appendingPathComponent("prometheus/prometheus.yml").path,
            ])
        #expect(config.status == 0, "\(config.standardOutput)\(config.standardError)")
        let tests = try Tools.run(
            "promtool",
            [
                "test", "rules",
                Self.deploy.appendingPathComponent("prometheus/mynotes-alerts.test.yml").path,
            ])
        #expect(tests.status == 0, "\(tests.standardOutput)\(tests.standardError)")
    }

    /// docs/OPERATIONS.md shows the same alert rules and scrape config as deploy/.
    @Test func theOperationsGuideQuotesTheDeployedFiles() throws {
        let guide = try String(
            contentsOf: Tools.packageRoot.appendingPathComponent("docs/OPERATIONS.md"),
            encoding: .utf8)
        for file in ["prometheus/mynotes-alerts.yml", "prometheus/prometheus.yml"] {
            let text = try String(
                contentsOf: Self.deploy.appendingPathComponent(file), encoding: .utf8)
            #expect(guide.contains(text), "docs/OPERATIONS.md does not quote deploy/\(file)")
        }
    }
}
