import CommandLineSupport
import PercentEncoding

/// `mynotes url encode|decode TEXT`: the percent-encoding library on the command line.
struct URLCommand: Command {
    enum Direction: String, CaseIterable {
        case encode, decode
    }

    enum Preset: String, CaseIterable {
        case unreserved, query, form, legacy

        var encoder: PercentEncoder {
            switch self {
            case .unreserved: return .unreserved
            case .query: return .queryValue
            case .form: return .form
            case .legacy: return .legacy
            }
        }
    }

    static let configuration = CommandConfiguration(
        name: "url", abstract: "Percent-encode or decode text.", discussion: discussion,
        arguments: [ArgumentSpec("encode|decode"), ArgumentSpec("TEXT")], options: options)
    private static let discussion = """
        Presets: unreserved (RFC 3986), query (a query value), form (x-www-form-urlencoded,
        space as +), legacy (the old app's set, which loses '&', '=' and '%').
        encode: --escape adds characters to escape, --leave characters to leave as they are.
        decode: strict unless --lenient; --leave CHARS keeps the escapes of those characters.
        TEXT '-' reads standard input, without its last line break.
        """
    private static let options: [OptionSpec] = [
        .value(
            "--preset", "unreserved|query|form|legacy",
            "The base character set (default unreserved)."),
        .value("--escape", "CHARS", "Characters to escape as well (encode)."),
        .value("--leave", "CHARS", "Characters to leave unescaped (encode) or escaped (decode)."),
        .flag("--lenient", "Decode: keep malformed escapes as they are instead of failing."),
    ]

    var direction: Direction
    var text: String
    var preset: Preset
    var escape: String?
    var leave: String?
    var lenient: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        let first = arguments.argument("encode|decode")
        guard let direction = Direction(rawValue: first) else {
            throw UsageError("expected encode or decode, not '\(first)'")
        }
        self.direction = direction
        text = arguments.argument("TEXT")
        preset = try arguments.choice("--preset", as: Preset.self) ?? .unreserved
        escape = arguments.value("--escape")
        leave = arguments.value("--leave")
        lenient = arguments.has("--lenient")
    }

    func validate() throws(UsageError) {
        if direction == .decode, escape != nil {
            throw UsageError("--escape applies to encode only")
        }
        if direction == .encode, lenient { throw UsageError("--lenient applies to decode only") }
        for characters in [escape, leave].compactMap({ $0 }) where !characters.allSatisfy(\.isASCII)
        {
            throw UsageError(
                "--escape and --leave take ASCII characters (others are always escaped)")
        }
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let input =
            text == "-"
            ? context.readStandardInputValue(
                prompt: "Type the text; end it with Ctrl-D at the start of a line.")
            : text
        switch direction {
        case .encode:
            var encoder = preset.encoder
            if let escape {
                encoder.escaping = encoder.escaping.union(ASCIISet(escape))
                encoder.leavingUnescaped = encoder.leavingUnescaped.subtracting(ASCIISet(escape))
            }
            if let leave {
                encoder.leavingUnescaped = encoder.leavingUnescaped.union(ASCIISet(leave))
                encoder.escaping = encoder.escaping.subtracting(ASCIISet(leave))
            }
            context.print(encoder.encode(input))
        case .decode:
            let decoder = PercentDecoder(
                plus: preset == .form ? .space : .literal, keepingEscaped: ASCIISet(leave ?? ""))
            if lenient {
                context.print(decoder.decodeLeniently(input))
                return
            }
            do {
                context.print(try decoder.decode(input))
            } catch {
                let lenient =
                    error.reason == .invalidUTF8
                    ? "use --lenient to decode it with U+FFFD for each byte that is not UTF-8"
                    : "use --lenient to keep it as it is"
                throw CommandFailure("cannot decode: \(error) (\(lenient))")
            }
        }
    }
}
