/// How parameters travel to the legacy endpoint.
public enum RequestMethod: String, Sendable, Hashable, CaseIterable {
    /// In the query string; short notes only, since a URL has a length limit.
    case get = "GET"
    /// In an `application/x-www-form-urlencoded` body; any note size.
    case post = "POST"
}
