/// Why the test cluster could not be started or used.
public struct PostgreSQLClusterError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
