import CommandLineSupport
import Foundation
import MyNotesKit

extension CommandFailure {
    /// A replica's failure in the user's language; network failures as the online
    /// commands report them.
    init(_ error: ReplicaError, in language: MessageLanguage, server: URL) {
        if case .client(let failure) = error {
            self.init(failure, in: language, server: server)
        } else if let code = error.resultCode {
            self.init(error.message(in: language) + " (ResultCode \(code.rawValue))")
        } else {
            self.init(error.message(in: language))
        }
    }
}
