import HTTPCore
import MyNotesDomain
import TextEscaping

/// `GET /healthz` (alive: 200 while the process serves) and `GET /readyz` (ready: not
/// draining, the database answers and its migrations are applied — 200, else 503 with
/// a JSON reason).
///
/// ```swift
/// HealthHandler(store: store, drain: drain).register(on: &router)
/// // GET /readyz → 200 {"status":"ready"}
/// //             → 503 {"status":"not ready","reason":"draining"}
/// ```
struct HealthHandler {
    static let livenessPath = "/healthz"
    static let readinessPath = "/readyz"

    let store: any NoteStore
    let drain: DrainState

    func register(on router: inout Router) {
        router.on(Self.livenessPath, methods: [.get, .head]) { _, _ in
            Self.answer(.ok, #"{"status":"alive"}"#)
        }
        let store = self.store
        let drain = self.drain
        router.on(Self.readinessPath, methods: [.get, .head]) { _, _ in
            if drain.isDraining {
                return Self.answer(
                    .serviceUnavailable, #"{"status":"not ready","reason":"draining"}"#)
            }
            if let monitored = store.monitoring,
                case .notReady(let reason) = await monitored.readiness()
            {
                var json = Array(#"{"status":"not ready","reason":"#.utf8)
                JSONText.appendString(reason, to: &json)
                return Self.answer(.serviceUnavailable, String(decoding: json, as: UTF8.self) + "}")
            }
            return Self.answer(.ok, #"{"status":"ready"}"#)
        }
    }

    private static func answer(_ status: HTTPStatus, _ json: String) -> HTTPResponse {
        var response = HTTPResponse(
            status: status, contentType: "application/json", body: Array(json.utf8))
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
