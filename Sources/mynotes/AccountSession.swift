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

    /// A new session: a new account's first (`signUp`), or another for an account (`signIn`).
    func start(_ kind: Start, email: String, password: String) async throws(CommandFailure)
        -> Session
    {
        let client = self.client
        let signingUp = kind == .signUp
        return try await calling(in: language) { () async throws(NotesClientError) in
            try await styled.styled(
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
        }
    }

    func signOut() async throws(NotesClientError) {
        let client = self.client
        try await styled.styled(
            { () async throws(NotesClientError) in try await client.signOut() },
            { queue, done in client.signOut(on: queue, completion: done) },
            { () throws(NotesClientError) in try client.blocking.signOut() })
    }
}
