import Foundation

exit(
    ServerCommandLine.main(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
