import CommandLineSupport
import Foundation
import MyNotesKit

/// The options every command that talks to a server takes, and where their values come
/// from: the command line first, then `MYNOTES_API`, `MYNOTES_SERVER`, `MYNOTES_EMAIL`,
/// `MYNOTES_TOKEN`, then the file `mynotes login` wrote.
struct ConnectionOptions {
    static let specs: [OptionSpec] = connectionSpecs + debuggingSpecs

    private static let connectionSpecs: [OptionSpec] =
        ([
            .value("--api", "legacy|rest", "The protocol (or env MYNOTES_API; default legacy)."),
            .value("--server", "URL", "The server (or env MYNOTES_SERVER)."),
            .value("--email", "EMAIL", "The account (or env MYNOTES_EMAIL)."),
            .value(
                "--token", "TOKEN",
                "The access token (or env MYNOTES_TOKEN); none for email-only servers."),
            .value("--timeout", "SECONDS", "How long one request may take (default 30)."),
        ] as [OptionSpec]).map { $0.listed(in: .named("Connection")) }

    private static let debuggingSpecs: [OptionSpec] =
        ([
            .value("--method", "get|post", "How requests travel (default post; legacy only)."),
            .value(
                "--wire", "json|xml",
                "The response format asked of the server (default json; legacy only)."),
            .value("--style", "async|callback|sync", "The SDK calling style used (default async)."),
        ] as [OptionSpec]).map { $0.listed(in: .debugging) }

    /// The options of commands that sign in with a password, which always speak REST.
    static let accountSpecs = specs.filter {
        ["--server", "--email", "--style", "--timeout"].contains($0.name)
    }

    /// The settings resolved from the command line, the environment and the config file.
    struct Resolved {
        var api: ServerAPI
        var server: URL
        var email: String?
        var token: String?
    }

    var api: ServerAPI?
    var server: String?
    var email: String?
    var token: String?
    var method: RequestMethod
    var wire: WireFormat
    var style: ClientStyle
    var timeout: Double
    /// `--method` or `--wire`, if given: options of the legacy protocol only.
    var legacyOption: String?
    /// Whether no token is to be sent, whatever the environment and the file say
    /// (`login`, answered with an empty token).
    var withoutToken = false

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        api = try arguments.choice("--api", as: ServerAPI.self)
        server = arguments.value("--server")
        email = arguments.value("--email")
        token = arguments.value("--token")
        method = try Self.method(arguments.value("--method"))
        wire = try Self.wire(arguments.value("--wire"))
        legacyOption = ["--method", "--wire"].first { arguments.value($0) != nil }
        style = try arguments.choice("--style", as: ClientStyle.self) ?? .async
        if let text = arguments.value("--timeout") {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw UsageError(
                    "option '--timeout' must be a positive number of seconds, not '\(text)'")
            }
            timeout = seconds
        } else {
            timeout = 30
        }
    }

    private static func method(_ text: String?) throws(UsageError) -> RequestMethod {
        switch text?.lowercased() {
        case nil, "post": return .post
        case "get": return .get
        default: throw UsageError("option '--method' must be one of get|post, not '\(text!)'")
        }
    }

    private static func wire(_ text: String?) throws(UsageError) -> WireFormat {
        switch text?.lowercased() {
        case nil, "json": return .json
        case "xml": return .xml
        default: throw UsageError("option '--wire' must be one of json|xml, not '\(text!)'")
        }
    }

    func validate() throws(UsageError) {
        if api == .rest, let legacyOption {
            throw UsageError("option '\(legacyOption)' applies to --api legacy only")
        }
        if let server, !Self.isHTTPURL(server) {
            throw UsageError("option '--server' must be an http or https URL, not '\(server)'")
        }
    }

    /// The settings, from the command line, the environment and the config file, in that order.
    func resolve(in context: CommandContext) throws(CommandFailure) -> Resolved {
        let environment = context.environment
        let file = try ConfigFile.load(environment: environment)
        func pick(_ flag: String?, _ variable: String, _ saved: String?) -> String? {
            [flag, environment[variable], saved].compactMap { $0 }.first { !$0.isEmpty }
        }
        var api = ServerAPI.legacy
        if let text = pick(self.api?.rawValue, "MYNOTES_API", file?.api?.rawValue) {
            guard let chosen = ServerAPI(rawValue: text) else {
                throw CommandFailure("MYNOTES_API must be one of legacy|rest, not '\(text)'")
            }
            api = chosen
        }
        guard let serverText = pick(server, "MYNOTES_SERVER", file?.server) else {
            throw CommandFailure(
                "no server: give --server URL, set MYNOTES_SERVER, or run 'mynotes login'")
        }
        guard Self.isHTTPURL(serverText), let url = URL(string: serverText) else {
            throw CommandFailure("the server must be an http or https URL, not '\(serverText)'")
        }
        return Resolved(
            api: api, server: url, email: pick(email, "MYNOTES_EMAIL", file?.email),
            token: withoutToken ? nil : pick(token, "MYNOTES_TOKEN", file?.token))
    }

    /// The client, with settings resolved from the command line, the environment and the config file.
    func makeClient(in context: CommandContext) throws(CommandFailure) -> StyledNotesClient {
        let resolved = try resolve(in: context)
        switch resolved.api {
        case .legacy:
            guard let email = resolved.email else {
                throw CommandFailure(
                    "no account: give --email EMAIL, set MYNOTES_EMAIL, or run 'mynotes login'")
            }
            let credentials: Credentials =
                if let token = resolved.token {
                    .token(email: email, token: token)
                } else {
                    .emailOnly(email)
                }
            var configuration = NotesClient.Configuration(
                server: resolved.server, credentials: credentials, language: context.language)
            configuration.method = method
            configuration.wire = wire
            configuration.timeout = duration
            return StyledNotesClient(backend: .legacy(NotesClient(configuration)), style: style)
        case .rest:
            guard let token = resolved.token else {
                throw CommandFailure(
                    "no token: give --token TOKEN, set MYNOTES_TOKEN, or run 'mynotes login --api rest'"
                )
            }
            let client = makeAPIClient(server: resolved.server, token: token, in: context)
            return StyledNotesClient(
                backend: .rest(client, email: resolved.email ?? ""), style: style)
        }
    }

    /// A REST client with these options' timeout and the user's language.
    func makeAPIClient(server: URL, token: String?, in context: CommandContext) -> NotesAPIClient {
        var configuration = NotesAPIClient.Configuration(
            server: server, token: token, language: context.language)
        configuration.timeout = duration
        return NotesAPIClient(configuration)
    }

    private var duration: Duration { .milliseconds(Int(timeout * 1000)) }

    private static func isHTTPURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), url.host != nil
        else { return false }
        return scheme == "http" || scheme == "https"
    }
}

/// A command whose only checks before running are its connection options'.
protocol ConnectionCommand: Command {
    var connection: ConnectionOptions { get }
}

extension ConnectionCommand {
    func validate() throws(UsageError) {
        try connection.validate()
    }
}
