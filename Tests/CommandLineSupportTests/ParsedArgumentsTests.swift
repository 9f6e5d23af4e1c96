import CommandLineSupport
import Testing

@Suite struct ParsedArgumentsTests {
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ParsedArguments(arguments, for: HelloCommand.configuration)
    }

    func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test(arguments: [
        ["--greeting=Hi", "ann"], ["--greeting", "Hi", "ann"], ["-g=Hi", "ann"],
        ["-g", "Hi", "ann"], ["ann", "--greeting=Hi"], ["--greeting=x", "ann", "-g=Hi"],
    ])
    func readsAValueInEveryWay(arguments: [String]) throws {
        let parsed = try parse(arguments)
        #expect(parsed.value("--greeting") == "Hi")
        #expect(parsed.argument("NAME") == "ann")
    }

    @Test(arguments: [["--loud"], ["-l"]])
    func readsAFlagByEitherName(flag: [String]) throws {
        #expect(try parse(flag + ["ann"]).has("--loud"))
        #expect(try !parse(["ann"]).has("--loud"))
    }

    @Test func keepsAnEqualsSignInsideTheValue() throws {
        #expect(try parse(["--greeting=a=b", "ann"]).value("--greeting") == "a=b")
    }

    @Test func endsOptionsAtDoubleDashAndTakesADashAsAnArgument() throws {
        #expect(try parse(["--", "-g"]).argument("NAME") == "-g")
        #expect(try parse(["-"]).argument("NAME") == "-")
    }

    @Test(arguments: [
        (["--bogus", "ann"], "unknown option '--bogus'"),
        (["-x=1", "ann"], "unknown option '-x'"),
        (["ann", "--greeting"], "option '--greeting' needs a value"),
        (["ann", "-g"], "option '-g' needs a value"),
        (["ann", "--loud=yes"], "option '--loud' takes no value"),
        (["ann", "-l=yes"], "option '-l' takes no value"),
        ([], "missing NAME"),
        (["ann", "bob"], "unexpected argument 'bob'"),
    ])
    func refusesWhatIsNotDeclared(arguments: [String], message: String) {
        #expect(usageError(arguments) == message)
    }

    @Test(arguments: [
        ("0", "option '--times' must be a whole number from 1 to 3, not '0'"),
        ("x", "option '--times' must be a whole number from 1 to 3, not 'x'"),
    ])
    func refusesAnIntegerOutOfRange(value: String, message: String) throws {
        let parsed = try parse(["ann", "--times", value])
        #expect(throws: UsageError(message)) { try parsed.integer("--times", in: 1...3) }
        #expect(try parse(["ann", "--times=2"]).integer("--times", in: 1...3) == 2)
    }

    enum Color: String, CaseIterable { case red, green }

    @Test func readsAChoiceOrNamesTheChoices() throws {
        #expect(try parse(["ann", "-g=red"]).choice("--greeting", as: Color.self) == .red)
        let parsed = try parse(["ann", "-g=blue"])
        #expect(throws: UsageError("option '--greeting' must be one of red|green, not 'blue'")) {
            try parsed.choice("--greeting", as: Color.self)
        }
    }

    @Test func takesOneOrMoreForARepeatingArgument() throws {
        let configuration = EchoCommand.configuration
        #expect(
            try ParsedArguments(["a", "b"], for: configuration).arguments("WORDS") == ["a", "b"])
        #expect(throws: UsageError("missing WORDS")) {
            try ParsedArguments([], for: configuration)
        }
    }
}
