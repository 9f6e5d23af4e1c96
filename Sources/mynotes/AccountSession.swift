import CommandLineSupport
import MyNotesKit
import MyNotesProtocol

/// The REST account calls of `signup`, `login` and `logout`, in the `--style` chosen.
struct AccountSession {
    let client: NotesAPIClient
    let styled: StyledNotesClient
    /// The language failures are reported in.
    let language: MessageLanguage

    /// A REST client for `resolved`'s server, acting with `token` (none to sign in).
    init(
        _ connection: ConnectionOptions, _ resolved: ConnectionOptions.Resolved,
        token: String? = nil, in context: CommandContext
    ) {
        client = connection.makeAPIClient(server: resolved.server, token: token, in: context)
        styled = StyledNotesClient(
            backend: .rest(client, email: resolved.email ?? ""), style: connection.style)
        language = context.language
    }

    enum Start {
        case signUp, signIn
    }

    /// A new session: a new account's first (`signUp`), or another for an account
    /// (`signIn`). A refused sign-in says how an account made on the server gets a password.
    func start(_ kind: Start, email: String, password: String) async throws(CommandFailure)
        -> Session
    {
        let client = self.client
        let signingUp = kind == .signUp
        do {
            return try await styled.styled(
                { () async throws(NotesClientError) in
                    signingUp
                        ? try await client.signUp(email: email, password: password)
                        : try await client.signIn(email: email, password: password)
                },
                { queue, done in
                    signingUp
                        ? client.signUp(
                            email: email, password: password, on: queue, completion: done)
                        : client.signIn(
                            email: email, password: password, on: queue, completion: done)
                },
                { () throws(NotesClientError) in
                    signingUp
                        ? try client.blocking.signUp(email: email, password: password)
                        : try client.blocking.signIn(email: email, password: password)
                })
        } catch .rest(.unauthorized(let problem)) where !signingUp {
            let failure = CommandFailure(
                .rest(.unauthorized(problem)), in: language, server: styled.server)
            throw CommandFailure(
                failure.message + "\n" + Self.noPasswordHint(email: email, language))
        } catch {
            throw CommandFailure(error, in: language, server: styled.server)
        }
    }

    /// An account made with `mynotes-server accounts add` has a token and no password.
    static func noPasswordHint(email: String, _ language: MessageLanguage) -> String {
        language == .chinese
            ? "用 'mynotes-server accounts add' 创建的账户还没有密码：请在服务器上运行 "
                + "'mynotes-server accounts set-password \(email)'，或用它的令牌登录（--token）。"
            : "An account made with 'mynotes-server accounts add' has no password until "
                + "'mynotes-server accounts set-password \(email)' is run on the server; "
                + "or log in with its token (--token)."
    }

    func signOut() async throws(NotesClientError) {
        let client = self.client
        try await styled.styled(
            { () async throws(NotesClientError) in try await client.signOut() },
            { queue, done in client.signOut(on: queue, completion: done) },
            { () throws(NotesClientError) in try client.blocking.signOut() })
    }
}
