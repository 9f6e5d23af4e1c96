import HTTPCore

/// What runs beside the application while it serves: SIGHUP's reloads, and the HTTP
/// listener that redirects to HTTPS.
struct ServeCompanions {
    let reload: ReloadSignal
    let redirect: HTTPServer?

    func stop() {
        reload.stop()
        redirect?.shutdown()
    }
}
