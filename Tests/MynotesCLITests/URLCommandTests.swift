import Testing

/// `mynotes url encode|decode`, the percent-encoding library on the command line.
@Suite("mynotes url")
struct URLCommandTests {
    @Test(
        "encode with presets and knobs",
        arguments: [
            (["a b&c=d+e/f~g"], "a%20b%26c%3Dd%2Be%2Ff~g"),
            (["a b&c=d+e/f~g", "--preset", "query"], "a%20b%26c%3Dd%2Be/f~g"),
            (["a b&c=d+e/f~g", "--preset", "form"], "a+b%26c%3Dd%2Be%2Ff%7Eg"),
            (["a b&c=d+e/f~g %41", "--preset", "legacy"], "a%20b&c=d%2Be/f~g%20%41"),
            (["日本 😀"], "%E6%97%A5%E6%9C%AC%20%F0%9F%98%80"),
            (["a/b c", "--leave", "/ "], "a/b c"),
            (["a-b_c", "--escape", "-_"], "a%2Db%5Fc"),
        ])
    func encode(arguments: [String], expected: String) async {
        let output = await CLI().run(["url", "encode"] + arguments)
        #expect(output.status == 0)
        #expect(output.stdout == expected + "\n")
    }

    @Test(
        "decode, strict and lenient",
        arguments: [
            (["%E6%97%A5+%2B"], "日++"),
            (["%E6%97%A5+%2B", "--preset", "form"], "日 +"),
            (["a%2Fb%20c", "--leave", "/"], "a%2Fb c"),
            (["100%", "--lenient"], "100%"),
            (["%zz%41", "--lenient"], "%zzA"),
        ])
    func decode(arguments: [String], expected: String) async {
        let output = await CLI().run(["url", "decode"] + arguments)
        #expect(output.status == 0)
        #expect(output.stdout == expected + "\n")
    }

    @Test("Strict decoding fails with the problem and its byte offset, exit 1")
    func strictFailure() async {
        let output = await CLI().run(["url", "decode", "ok%4"])
        #expect(output.status == 1)
        #expect(
            output.stderr
                == "mynotes: cannot decode: truncated escape \"%4\" at byte 2 (use --lenient to keep it as it is)\n"
        )
    }

    @Test("TEXT '-' reads standard input as it is")
    func standardInput() async {
        let output = await CLI().run(["url", "encode", "-"], input: "line 1\nline 2")
        #expect(output.stdout == "line%201%0Aline%202\n")
    }
}
