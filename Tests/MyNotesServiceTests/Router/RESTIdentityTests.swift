import Foundation
import HTTPCore
import MyNotesDomain
import MyNotesProtocol
import MyNotesTesting
import Testing

@testable import MyNotesService

/// Who a REST request speaks for is established by the responder, before any operation
/// runs: tested through the application's router in-process, over an in-memory store,
/// without a socket.
@Suite struct RESTIdentityTests {
    let store = InMemoryNoteStore()
    let services: DomainServices
    let changeStreams: ChangeStreamHub
    let router: Router

    init() {
        services = DomainServices(
            store: store,
            configuration: ServiceConfiguration(
                quota: .unlimited, passwordHasher: .testing, signUpRate: .unlimited,
                signInRate: .unlimited))
        changeStreams = ChangeStreamHub(
            feed: services.changeFeed, configuration: services.changeFeed.configuration)
        router = MyNotesApplication.router(services: services, changeStreams: changeStreams)
    }

    /// The operations anyone may call; every other one needs a bearer token.
    static let open: Set<RESTEndpoint> = [.createAccount, .createSession, .openAPIDocument]

    func send(
        _ method: HTTPMethod, _ path: String, token: String? = nil, body: String = ""
    ) async -> HTTPResponse {
        var headers = HTTPHeaders()
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if !body.isEmpty { headers["Content-Type"] = "application/json" }
        let request = HTTPRequest(
            method: method, path: path, headers: headers, body: Array(body.utf8),
            clientAddress: "127.0.0.1")
        return await router.respond(to: request, context: RequestContext())
    }

    static func text(_ response: HTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    @Test func everyOperationButTheOpenOnesAsksForAToken() async throws {
        defer { close() }
        for endpoint in RESTEndpoint.allCases where !Self.open.contains(endpoint) {
            let path = endpoint.path.replacingOccurrences(of: "{id}", with: "1")
            let missing = await send(endpoint.method, path)
            #expect(missing.status == .unauthorized, "\(endpoint) without a token")
            // A body the operation accepts: changing a password reads it before the session
            // service checks the token.
            let body =
                endpoint == .changePassword
                ? #"{"currentPassword":"old password","newPassword":"a new password"}"#
                : #"{"content":"x","date":"2026-12-08"}"#
            let unknown = await send(endpoint.method, path, token: "not-a-token", body: body)
            #expect(unknown.status == .unauthorized, "\(endpoint) with an unknown token")
            #expect(Self.text(unknown).contains("\"code\""), "\(endpoint) renders a problem")
        }
        let description = await send(.get, RESTEndpoint.openAPIDocument.path)
        #expect(description.status == .ok)
    }

    @Test func theSignedInAccountIsTheOneTheTokenNames() async throws {
        defer { close() }
        let (ann, annToken) = try await services.accounts.create(email: "ann@example.com")
        let (_, bobToken) = try await services.accounts.create(email: "bob@example.com")
        let created = await send(
            .post, "/api/v1/notes", token: annToken, body: #"{"content":"Ann's list"}"#)
        #expect(created.status == .created)
        #expect(try await store.notes(account: ann.id, page: NotePage(limit: 5)).count == 1)

        let annSees = await send(.get, "/api/v1/notes", token: annToken)
        #expect(Self.text(annSees).contains("Ann's list"))
        let bobSees = await send(.get, "/api/v1/notes", token: bobToken)
        #expect(bobSees.status == .ok)
        #expect(!Self.text(bobSees).contains("Ann's list"))
        let location = try #require(created.headers["Location"])
        #expect(await send(.get, location, token: bobToken).status == .notFound)
        #expect(await send(.delete, location, token: bobToken).status == .notFound)
        #expect(await send(.get, location, token: annToken).status == .ok)
    }

    @Test func aSessionOperationActsOnTheTokenPresented() async throws {
        defer { close() }
        let (_, token) = try await services.accounts.create(email: "ann@example.com")
        let sessions = await send(.get, "/api/v1/sessions", token: token)
        #expect(sessions.status == .ok)
        #expect(Self.text(sessions).contains("\"current\":true"))
        #expect(await send(.delete, "/api/v1/sessions/current", token: token).status == .noContent)
        #expect(await send(.get, "/api/v1/notes", token: token).status == .unauthorized)
    }

    func close() {
        changeStreams.close()
        services.close()
    }
}
