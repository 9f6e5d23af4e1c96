import CommandLineSupport
import HTTPCore
import MyNotesDomain
import MyNotesService
import ServerLogging

/// What `serve` offers the person who runs it: `/metrics` and where, the access
/// log, the drain delay, HTTPS and its redirect. Its flags are one block in `serve`'s
/// options (``options``), read here.
struct ServeOperations {
    static let options: [OptionSpec] = [
        .value(
            "--metrics-listen", "HOST:PORT",
            "Serve /metrics (and /healthz, /readyz) on a listener of its own; [::1]:PORT for IPv6."),
        .value(
            "--metrics-token", "TOKEN",
            "Serve /metrics on the main listener to 'Authorization: Bearer TOKEN' "
                + "(env MYNOTES_METRICS_TOKEN, which ps does not show)."),
        .value("--access-log", "PATH|-", "Write one line per request to PATH, or - for stdout."),
        .value(
            "--drain-delay", "SECONDS",
            "On SIGTERM, answer /readyz 503 this long before refusing connections (default 0)."),
        .value("--tls-cert", "PEM", "Serve HTTPS with this certificate chain (needs --tls-key)."),
        .value("--tls-key", "PEM", "The private key of --tls-cert."),
        .value(
            "--redirect-http", "PORT",
            "With TLS, also listen for plain HTTP on PORT and redirect it to HTTPS."),
    ]

    var metrics = MetricsExposure.off
    var accessLog: AccessLogDestination?
    var accessLogFormat = LogFormat.text
    var drainDelay = Duration.zero
    var tls: TLSConfiguration?
    var redirectPort: Int?

    init() {}

    init(_ arguments: ParsedArguments, logFormat: LogFormat) throws(UsageError) {
        let token =
            arguments.value("--metrics-token") ?? arguments.environment["MYNOTES_METRICS_TOKEN"]
        if let listen = arguments.value("--metrics-listen") {
            guard token == nil else {
                throw UsageError(
                    "options '--metrics-listen' and '--metrics-token' exclude each other")
            }
            let (host, port) = try Self.hostAndPort(listen)
            metrics = .listener(host: host, port: port)
        } else if let token {
            guard token.utf8.count >= 16 else {
                throw UsageError("option '--metrics-token' must be at least 16 characters")
            }
            metrics = .mainListener(token: token)
        }
        accessLog = arguments.value("--access-log").map(AccessLogDestination.init(argument:))
        accessLogFormat = logFormat
        if let seconds = try arguments.integer("--drain-delay", in: 0...3_600) {
            drainDelay = .seconds(seconds)
        }
        switch (arguments.value("--tls-cert"), arguments.value("--tls-key")) {
        case (let certificate?, let key?):
            tls = TLSConfiguration(certificateFile: certificate, keyFile: key)
        case (nil, nil): break
        default: throw UsageError("options '--tls-cert' and '--tls-key' go together")
        }
        redirectPort = try arguments.integer("--redirect-http", in: 0...65_535)
        if redirectPort != nil, tls == nil {
            throw UsageError("option '--redirect-http' needs '--tls-cert' and '--tls-key'")
        }
    }

    /// `HOST:PORT`, `[IPv6]:PORT`.
    static func hostAndPort(_ text: String) throws(UsageError) -> (String, Int) {
        guard let colon = text.lastIndex(of: ":") else {
            throw UsageError("option '--metrics-listen' must be HOST:PORT, not '\(text)'")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else {
            throw UsageError("option '--metrics-listen' must be HOST:PORT, not '\(text)'")
        }
        let port = try ParsedArguments.integer(
            String(text[text.index(after: colon)...]), named: "--metrics-listen", in: 0...65_535)
        return (host, port)
    }

    /// The server configuration with TLS, and the application's operations with the
    /// access log opened.
    func apply(to server: ServerConfiguration) throws -> (
        ServerConfiguration, OperationsConfiguration
    ) {
        var server = server
        server.tls = tls
        var operations = OperationsConfiguration()
        operations.metrics = metrics
        operations.drainDelay = drainDelay
        if tls != nil { operations.strictTransportSecurity = .seconds(31_536_000) }
        if let accessLog {
            operations.accessLog = try AccessLogWriter(
                destination: accessLog, format: accessLogFormat)
        }
        return (server, operations)
    }

    var scheme: String { tls == nil ? "http" : "https" }
}

extension ServeOperations {
    /// Starts SIGHUP handling (reopen the access log, reload the certificate) and the
    /// redirecting listener.
    func start(
        _ application: MyNotesApplication, server: ServerConfiguration, logger: Logger
    ) throws(HTTPServerError) -> ServeCompanions {
        let reloadsTLS = tls != nil
        let reopensLog = accessLog != nil
        let reload = ReloadSignal {
            if reopensLog { application.reopenAccessLog() }
            guard reloadsTLS else {
                logger.info("SIGHUP", ["access_log": reopensLog ? "reopened" : "none"])
                return
            }
            do {
                try application.reloadTLS()
                logger.info(
                    "SIGHUP: TLS certificate reloaded",
                    ["access_log": reopensLog ? "reopened" : "none"])
            } catch {
                logger.error(
                    "SIGHUP: TLS certificate not reloaded, the old one stays", ["error": "\(error)"]
                )
            }
        }
        var redirect: HTTPServer?
        if let redirectPort {
            var plain = ServerConfiguration()
            plain.host = server.host
            plain.port = redirectPort
            plain.threads = 1
            plain.responderThreads = 1
            do {
                let server = try HTTPServer(
                    configuration: plain,
                    responder: HTTPSRedirectResponder(httpsPort: application.port))
                redirect = server
            } catch {
                reload.stop()
                throw error
            }
        }
        return ServeCompanions(reload: reload, redirect: redirect)
    }

    /// Prints, after the ready line, where the redirect and the metrics listen.
    func announce(
        _ application: MyNotesApplication, companions: ServeCompanions, in context: CommandContext
    ) {
        if let redirect = companions.redirect {
            context.print("Redirecting http on port \(redirect.port) to https")
        }
        if let port = application.metricsPort, case .listener(let host, _) = metrics {
            let shown = host.contains(":") ? "[\(host)]" : host
            context.print("Metrics on http://\(shown):\(port)/metrics")
        }
    }
}
