import Dispatch
import Foundation
import HTTPCore
import MyNotesService
import Storage

/// `mynotes-server [serve]`: runs the web service until SIGINT or SIGTERM.
struct ServeCommand: ServerCommand {
    static let path = ["serve"]
    static let help = """
        USAGE: mynotes-server [serve] [options]

        Serves the MyNotes web service: the legacy webservice.php protocol and REST API v1.

        OPTIONS:
          --host H                The address to listen on (env MYNOTES_HOST; default 127.0.0.1).
          --port P                The port, 0 for any free one (env MYNOTES_PORT; default 8080).
        \(DatabaseOption.help)
          --threads N             Worker threads (default: the number of cores).
          --legacy-email-auth     Let the email alone identify an account, as the original
                                  service did. Anyone who knows an email reads its notes.
          --no-signup             Refuse POST /api/v1/accounts: only 'accounts add' creates
                                  accounts.
          --auth-rate-limits L    Sign-up and sign-in rates per client address and
                                  overall: 'standard' (default: sign-up 5 then 1 per 10 s
                                  per address, 2/s overall; sign-in 10 then 1 per 2 s,
                                  5/s overall) or 'unlimited' (for test rigs only).
          --quota N               Notes one account may hold, 0 for no limit (default 0).
          --max-body BYTES        The largest request body accepted (default 1048576).
          --idle-timeout SECONDS  Close connections silent this long (default 30).
          -h, --help              Show this help.
        """

    var server = ServerConfiguration()
    var service = ServiceConfiguration()
    var location: StoreLocation

    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        let parsed = try ParsedArguments(
            arguments,
            options: [
                "--host", "--port", DatabaseOption.name, "--threads", "--quota", "--max-body",
                "--idle-timeout", "--auth-rate-limits",
            ],
            flags: ["--legacy-email-auth", "--no-signup"])
        if let extra = parsed.positionals.first {
            throw UsageError("unexpected argument '\(extra)'")
        }
        server.host = parsed.values["--host"] ?? environment["MYNOTES_HOST"] ?? server.host
        if let port = parsed.values["--port"] ?? environment["MYNOTES_PORT"] {
            server.port = try ParsedArguments.integer(port, named: "--port", in: 0...65_535)
        }
        server.threads = try parsed.integer("--threads", in: 1...1024) ?? server.threads
        server.maxBodyBytes =
            try parsed.integer("--max-body", in: 1...(1 << 30)) ?? server.maxBodyBytes
        server.idleTimeoutSeconds =
            try parsed.integer("--idle-timeout", in: 1...86_400) ?? server.idleTimeoutSeconds
        if let quota = try parsed.integer("--quota", in: 0...Int(Int32.max)), quota > 0 {
            service.quota = .atMost(quota)
        }
        if parsed.flags.contains("--legacy-email-auth") { service.authentication = .legacyEmail }
        if parsed.flags.contains("--no-signup") { service.signup = .closed }
        switch parsed.values["--auth-rate-limits"] {
        case nil, "standard"?: break
        case "unlimited"?:
            service.signUpRate = .unlimited
            service.signInRate = .unlimited
        case let other?:
            throw UsageError("invalid value '\(other)' for '--auth-rate-limits'")
        }
        location = try DatabaseOption.location(parsed, environment: environment)
    }

    func validate() throws(UsageError) {
        guard !server.host.isEmpty else { throw UsageError("invalid value '' for '--host'") }
    }

    func run() throws(CommandFailure) {
        let signals = ShutdownSignals()
        let store = try DatabaseOption.open(location)
        let application: MyNotesApplication
        do {
            application = try MyNotesApplication(server: server, service: service, store: store)
        } catch {
            store.close()
            throw CommandFailure(error.description)
        }
        if service.authentication == .legacyEmail {
            Console.error(
                "warning: --legacy-email-auth is on: the email alone identifies an account, "
                    + "so anyone who knows an email can read and change its notes")
        }
        let host = server.host.contains(":") ? "[\(server.host)]" : server.host
        Console.output("MyNotes server listening on http://\(host):\(application.port)")
        signals.wait()
        application.shutdown()
        Console.output("MyNotes server stopped")
    }
}
