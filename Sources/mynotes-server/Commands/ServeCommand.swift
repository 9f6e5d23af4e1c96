import CommandLineSupport
import Dispatch
import Foundation
import HTTPCore
import MyNotesDomain
import MyNotesService
import ServerLogging
import Storage
import StorageSupport

/// `mynotes-server [serve]`: runs the web service until SIGINT or SIGTERM.
///
/// An option is one line in `configuration.options`, read in `init(parsing:)`.
struct ServeCommand: Command {
    static let configuration = CommandConfiguration(
        name: "serve", abstract: "Run the server.",
        discussion: """
            Serves the MyNotes web service: the legacy webservice.php protocol and REST API v1,
            until SIGINT or SIGTERM.
            """,
        options: [
            .value(
                "--host", "H", "The address to listen on (env MYNOTES_HOST; default 127.0.0.1)."),
            .value(
                "--port", "P", "The port, 0 for any free one (env MYNOTES_PORT; default 8080).",
                short: "-p"),
            DatabaseOption.spec,
            .value(
                "--threads", "N", "Worker threads (default: one per core the server may run on)."),
            .flag(
                "--legacy-email-auth",
                "Let the email alone identify an account, as the original service did. "
                    + "Anyone who knows an email reads its notes."),
            .flag(
                "--no-signup",
                "Refuse POST /api/v1/accounts: only 'accounts add' creates accounts."),
            .value(
                "--auth-rate-limits", "standard|unlimited",
                "Sign-up and sign-in rates per client address and overall. standard (default): "
                    + "sign-up 5 then 1 per 10 s per address, 2/s overall; sign-in 10 then "
                    + "1 per 2 s per address, 5/s overall. unlimited: for test rigs only."),
            // The per-account storage quota, on by default so that no account can fill the disk.
            .value(
                "--quota", "N",
                "Notes one account may hold, 0 for no limit (default \(NoteQuota.standard.notes ?? 0))."
            ),
            .value(
                "--quota-bytes", "BYTES",
                "Bytes of note content (UTF-8) one account may hold, 0 for no limit "
                    + "(default \(NoteQuota.standard.bytes ?? 0): 100 MiB)."),
            // How long a sign-in session lasts, unused and in all.
            .value(
                "--session-idle-timeout", "DURATION",
                "End a sign-in session unused this long: 30d, 12h, 45m, 90s or seconds; "
                    + "never (or 0) for no limit (default 30d)."),
            .value(
                "--session-lifetime", "DURATION",
                "End a sign-in session this long after it began, however used; never (or 0) "
                    + "for no limit (default 90d). Operator tokens ('accounts add') never expire."),
            .value("--max-body", "BYTES", "The largest request body accepted (default 1048576)."),
            .value("--idle-timeout", "SECONDS", "Close connections silent this long (default 30)."),
            .value(
                "--max-connections", "N",
                "Connections open at once; more are closed at accept (default 4096)."),
            .value(
                "--max-connections-per-address", "N",
                "Connections open at once from one IP address (default 1024)."),
            .value(
                "--request-head-timeout", "SECONDS",
                "Close a connection whose request head is not all in by then (default 10)."),
            .value(
                "--request-body-timeout", "SECONDS",
                "Close a connection whose request body is not all in by then (default 60)."),
            // The Host names answered, so that a DNS rebinding page cannot reach the server.
            .value(
                "--allowed-hosts", "LIST",
                "Host names answered, comma-separated: name, name:port, [v6], or * for any; "
                    + "others get 421. Default: the listen address, localhost, 127.0.0.1, "
                    + "[::1] and the host of --public-url."),
            .value(
                "--public-url", "URL",
                "The URL clients reach the server at through a proxy or a DNS name, "
                    + "e.g. https://notes.example.com; its host is answered."),
            .value(
                "--log-format", "text|json",
                "Log to standard error as text or JSON lines (env MYNOTES_LOG_FORMAT; default text)."
            ),
            .value(
                "--log-level", "LEVEL",
                "trace, debug, info, notice, warning, error or critical (default info)."),
            // PostgreSQL.
            .value(
                "--db-pool", "N",
                "PostgreSQL connections this server holds, each with a thread that runs "
                    + "statements on it (default: 4 per core, at least 8)."),
            // The change feed (GET /api/v1/changes, /api/v1/changes/stream).
            .value(
                "--change-retention", "DURATION",
                "Keep removed notes' tombstones in the change feed this long: 30d, 12h, 45m, "
                    + "90s or seconds; never (or 0) to keep them (default 30d). A client whose "
                    + "cursor is older syncs again in full."),
            .value(
                "--change-heartbeat", "DURATION",
                "How often an idle change stream sends a heartbeat (default 15s)."),
            .value(
                "--change-streams-per-account", "N",
                "Change streams one account may hold open at once (default 32)."),
        ] + ServeOperations.options)  // metrics, access log, TLS: ServeOperations.swift

    var server = ServerConfiguration()
    var service = ServiceConfiguration()
    var location: StoreLocation
    var storeLimits = StoreLimits()
    var logFormat = LogFormat.text
    var logLevel = LogLevel.info
    /// Metrics, access log, drain delay, TLS (ServeOperations.swift).
    var operations = ServeOperations()

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        let environment = arguments.environment
        server.host = arguments.value("--host") ?? environment["MYNOTES_HOST"] ?? server.host
        if let port = arguments.value("--port") ?? environment["MYNOTES_PORT"] {
            server.port = try ParsedArguments.integer(port, named: "--port", in: 0...65_535)
        }
        server.threads = try arguments.integer("--threads", in: 1...1024) ?? server.threads
        server.maxBodyBytes =
            try arguments.integer("--max-body", in: 1...(1 << 30)) ?? server.maxBodyBytes
        server.idleTimeoutSeconds =
            try arguments.integer("--idle-timeout", in: 1...86_400) ?? server.idleTimeoutSeconds
        ServerConfiguration.raiseOpenFileLimit()
        server.maxConnections =
            try arguments.integer("--max-connections", in: 1...1_000_000)
            ?? ServerConfiguration.defaultMaxConnections
        server.maxConnectionsPerAddress =
            try arguments.integer("--max-connections-per-address", in: 1...1_000_000)
            ?? server.maxConnectionsPerAddress
        if let seconds = try arguments.integer("--request-head-timeout", in: 1...86_400) {
            server.requestHeadTimeout = .seconds(seconds)
        }
        if let seconds = try arguments.integer("--request-body-timeout", in: 1...86_400) {
            server.requestBodyTimeout = .seconds(seconds)
        }
        // The Host names answered (against DNS rebinding).
        var publicHost: String?
        if let text = arguments.value("--public-url") {
            guard let url = URLComponents(string: text),
                ["http", "https"].contains(url.scheme?.lowercased()), let host = url.host,
                !host.isEmpty
            else {
                throw UsageError(
                    "option '--public-url' must be an http or https URL, not '\(text)'")
            }
            publicHost = host
        }
        if let list = arguments.value("--allowed-hosts") {
            let names = list.split(separator: ",", omittingEmptySubsequences: false).map {
                String($0.trimmingCharacters(in: .whitespaces))
            }
            guard let hosts = AllowedHosts(names) else {
                throw UsageError(
                    "option '--allowed-hosts' must list host names (name, name:port, [v6]) "
                        + "or *, not '\(list)'")
            }
            server.allowedHosts = hosts
        } else {
            server.allowedHosts = .defaults(listeningOn: server.host, publicHost: publicHost)
        }
        // The storage quota, on by default; 0 lifts a limit.
        service.quota = .standard
        if let notes = try arguments.integer("--quota", in: 0...Int(Int32.max)) {
            service.quota.notes = notes > 0 ? notes : nil
        }
        if let bytes = try arguments.integer("--quota-bytes", in: 0...Int(Int64.max)) {
            service.quota.bytes = bytes > 0 ? bytes : nil
        }
        if arguments.has("--legacy-email-auth") { service.authentication = .legacyEmail }
        if arguments.has("--no-signup") { service.signup = .closed }
        switch arguments.value("--auth-rate-limits") {
        case nil, "standard"?: break
        case "unlimited"?:
            service.signUpRate = .unlimited
            service.signInRate = .unlimited
        case let other?:
            throw UsageError(
                "option '--auth-rate-limits' must be standard or unlimited, not '\(other)'")
        }
        // Session lifetimes: unused, and in all.
        if let text = arguments.value("--session-idle-timeout") {
            service.sessionLifetime.idle = try Self.lifetime(text, named: "--session-idle-timeout")
        }
        if let text = arguments.value("--session-lifetime") {
            service.sessionLifetime.absolute = try Self.lifetime(text, named: "--session-lifetime")
        }
        // The change feed.
        if let text = arguments.value("--change-retention") {
            service.changeFeed.retention = try Self.lifetime(text, named: "--change-retention")
        }
        if let text = arguments.value("--change-heartbeat") {
            guard let heartbeat = try Self.lifetime(text, named: "--change-heartbeat") else {
                throw UsageError("option '--change-heartbeat' must be a duration, not '\(text)'")
            }
            service.changeFeed.heartbeat = heartbeat
        }
        service.changeFeed.streamsPerAccount =
            try arguments.integer("--change-streams-per-account", in: 1...1_000_000)
            ?? service.changeFeed.streamsPerAccount
        location = try DatabaseOption.location(arguments)
        // PostgreSQL: the connections this server holds.
        storeLimits.connections =
            try arguments.integer("--db-pool", in: 1...1_000) ?? storeLimits.connections
        // Servers sharing a database share the throttle and the rates through it.
        if case .postgreSQL = location { service.limitState = .inStore }
        if let text = arguments.value("--log-format") ?? environment["MYNOTES_LOG_FORMAT"] {
            guard let format = LogFormat(rawValue: text) else {
                throw UsageError("option '--log-format' must be text or json, not '\(text)'")
            }
            logFormat = format
        }
        if let text = arguments.value("--log-level") {
            guard let level = LogLevel(name: text) else {
                let names = LogLevel.allCases.map(\.description).joined(separator: ", ")
                throw UsageError("option '--log-level' must be one of \(names), not '\(text)'")
            }
            logLevel = level
        }
        operations = try ServeOperations(arguments, logFormat: logFormat)  // metrics, TLS
    }

    func validate() throws(UsageError) {
        guard !server.host.isEmpty else {
            throw UsageError("option '--host' must be an address, not ''")
        }
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        HeapPolicy.chosen(environment: context.environment).apply()
        let signals = ShutdownSignals()
        // A start that fails (the port taken) leaves no new, empty database behind.
        let newFiles = DatabaseOption.missingFiles(location)
        let store = try DatabaseOption.open(location, limits: storeLimits)
        let logger = Logger(sink: .standardError, format: logFormat, level: logLevel)
        let application: MyNotesApplication
        do {
            // The access log, TLS and metrics come from `operations`.
            let (server, configuration) = try operations.apply(to: server)
            application = try MyNotesApplication(
                server: server, service: service, store: store, logger: logger,
                operations: configuration)
        } catch {
            store.close()
            DatabaseOption.remove(newFiles)
            throw CommandFailure("\(error)")
        }
        for warning in store.monitoring?.warnings ?? [] {
            logger.warning(warning)
        }
        if service.authentication == .legacyEmail {
            logger.warning(
                "--legacy-email-auth is on: the email alone identifies an account, "
                    + "so anyone who knows an email can read and change its notes")
        }
        let host = server.host.contains(":") ? "[\(server.host)]" : server.host
        logger.info(
            "server started",
            [
                "address": "\(operations.scheme)://\(host):\(application.port)",
                "database": location.description,
            ])
        // SIGHUP reloads and the HTTPS redirect, started before the ready line
        // so that a SIGHUP sent once it appears is caught, not fatal.
        let companions: ServeCompanions
        do {
            companions = try operations.start(application, server: server, logger: logger)
        } catch {
            application.shutdown()
            throw CommandFailure(error.description)
        }
        context.print(
            "MyNotes server listening on \(operations.scheme)://\(host):\(application.port)")
        operations.announce(application, companions: companions, in: context)
        await signals.wait()
        companions.stop()
        logger.info("server stopping")
        application.shutdown()
        context.print("MyNotes server stopped")
    }
}
