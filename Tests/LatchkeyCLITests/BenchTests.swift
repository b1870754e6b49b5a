import Testing

@Suite("latchkey bench verify")
struct BenchTests {
    @Test("a tiny run prints each phase and ends with the three result lines")
    func tinyRun() async throws {
        let result = await CLIHarness.run(["bench", "verify", "--iterations", "2", "--rounds", "3"])
        #expect(result.status == 0, "\(result.output)")
        let lines = result.lines
        try #require(lines.count >= 7)
        #expect(lines.filter { $0.contains("µs/op") }.count == 4)
        let last = Array(lines.suffix(3))
        for (line, key) in zip(last, ["raw_verify_us", "assertion_ratio", "registration_ratio"]) {
            let parts = line.split(separator: "=", maxSplits: 1)
            #expect(parts.first.map(String.init) == key)
            let value = try #require(parts.last.flatMap { Double($0) }, "\(line)")
            #expect(value > 0)
        }
    }

    @Test("--breakdown adds a line for each step and still ends with the three result lines")
    func breakdown() async throws {
        let result = await CLIHarness.run(["bench", "verify", "--iterations", "1", "--rounds", "2", "--breakdown"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.lines.filter { $0.hasPrefix("  assertion: ") }.count == 6)
        #expect(result.lines.filter { $0.hasPrefix("  registration: ") }.count == 2)
        #expect(result.lines.last?.hasPrefix("registration_ratio=") == true)
    }

    @Test(
        "--iterations or --rounds below 1 is a usage error",
        arguments: [
            ("--iterations", "usage.invalidIterations"), ("--rounds", "usage.invalidRounds"),
        ])
    func badCounts(flag: String, code: String) async {
        let result = await CLIHarness.run(["bench", "verify", flag, "0"])
        #expect(result.status == 2)
        #expect(result.errorCode == code)
    }
}

@Suite("latchkey bench password")
struct BenchPasswordTests {
    @Test("a small run prints the parameters and ms per verification")
    func smallRun() async throws {
        let result = await CLIHarness.run(["bench", "password", "--log-n", "10", "--count", "2"])
        #expect(result.status == 0, "\(result.output)")
        let lines = result.lines
        #expect(lines.contains { $0.hasPrefix("password verification, scrypt ln=10,r=8,p=1 (1 MiB): 2 verifications") })
        let mean = try #require(
            lines.first { $0.hasPrefix("password_verify_ms=") }?.split(separator: "=").last.flatMap { Double($0) })
        #expect(mean > 0)
        #expect(lines.last == "password_params=ln=10,r=8,p=1")
    }

    @Test(
        "out-of-range parameters and counts are usage errors",
        arguments: [
            (["--count", "0"], "usage.invalidCount"), (["--log-n", "30"], "usage.invalidParameters"),
        ])
    func refusals(flags: [String], code: String) async {
        let result = await CLIHarness.run(["bench", "password"] + flags)
        #expect(result.status == 2)
        #expect(result.errorCode == code)
    }
}
