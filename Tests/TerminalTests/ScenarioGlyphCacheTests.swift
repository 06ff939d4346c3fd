import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// `teller scenario` in-process ends with the glyph cache over the whole
/// run, from the cold cache of the terminal it built.
@Suite(.tags(.realProcess)) struct ScenarioGlyphCacheTests {
    @Test func theRunEndsWithTheGlyphCacheFromCold() async throws {
        let terminal = try TerminalProcess(host: nil)
        let scenario = terminal.directory.file("sign-in.scenario")
        try Data("wait-for sign-in.pin 20\ntap sign-in.pin.1\nexpect sign-in.pin\n".utf8).write(to: URL(fileURLWithPath: scenario))
        let result = try await ChildProcess.run(
            terminal.teller, ["scenario", scenario, "--config", terminal.directory.file("teller.conf"), "--out", terminal.directory.file("shots")],
            timeout: .seconds(60))
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("glyph cache: ") }
        #expect(lines.count == 4, "\(result.stdout)")
        let lookups = lines.first { $0.contains("look-ups by the terminal") } ?? ""
        let held = lines.first { $0.contains(" glyphs in ") } ?? ""
        let screens = lines.first { $0.contains("misses when each screen first showed: ") } ?? ""
        let misses = try #require(number(before: "misses", in: lookups), "\(lines)")
        let hits = try #require(number(before: "hits", in: lookups), "\(lines)")
        // A cold cache misses each glyph once and keeps it: as many misses as glyphs held.
        #expect(misses > 0)
        #expect(hits > misses)
        #expect(number(before: "glyphs", in: held) == misses, "\(lines)")
        #expect(number(before: "bytes", in: held).map { $0 > 0 } == true, "\(lines)")
        // Only the sign-in screen showed, so every miss is its.
        #expect(screens.hasSuffix("first showed: sign-in \(misses)"), "\(lines)")
    }

    /// The whole number just before the word `word` in `line`.
    private func number(before word: String, in line: String) -> Int? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "(" })
        guard let index = words.firstIndex(where: { $0 == word }), index > 0 else { return nil }
        return Int(words[index - 1])
    }
}
