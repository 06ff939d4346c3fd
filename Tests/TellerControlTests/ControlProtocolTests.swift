import FoundationEssentials
import Testing
import TellerControl
import TellerCore

/// The control socket's line protocol, without a socket: what `teller ctl`
/// writes and what the terminal answers.
@Suite struct ControlProtocolTests {
    /// Every command's line form parses back to the same command.
    @Test(arguments: [
        ControlCommand.status, .ui, .sync, .prune, .settle, .screenshot(path: "/tmp/a b.png"), .touch(x: 10, y: -3),
        .swipe(x1: 1, y1: 2, x2: 3, y2: 4), .tap(identifier: "sign-in.pin.1"), .type(text: "Anna  Schmidt\nline two"),
        .play(path: "qa/tap.evemu"), .screenshotPNG,
    ])
    func aCommandsLineParsesBackToIt(_ command: ControlCommand) throws {
        #expect(try ControlCommand(line: command.line) == command)
    }

    /// A bad line is refused with words that say what it needs.
    @Test(arguments: [
        ("touch 1", "touch needs two integers: touch X Y"),
        ("swipe 1 2 3 x", "swipe needs four integers: swipe X1 Y1 X2 Y2"),
        ("tap", "tap needs one identifier"),
        ("tap a b", "tap needs one identifier"),
        ("play-evemu !!!", "play-evemu needs the recording in base64"),
        ("reboot", "unknown command 'reboot'; commands: status | ui"),
    ])
    func aBadLineNamesWhatIsMissing(_ line: String, _ words: String) throws {
        do {
            _ = try ControlCommand(line: line)
            Issue.record("'\(line)' was taken")
        } catch {
            #expect(error.description.hasPrefix(words), "\(error)")
        }
    }

    /// A tag goes back in the answer, so a client on a shared channel knows its own.
    @Test func aTaggedRequestGetsItsTagBack() throws {
        let (id, command) = ControlAnswer.splitTag("@req-7 tap home.find")
        #expect(id == "req-7")
        #expect(try ControlCommand(line: command) == .tap(identifier: "home.find"))
        let answer = ControlAnswer.tagged(ControlAnswer.ok(.string("done")), id: id)
        #expect(try JSONValue(parsing: answer)["id"] == .string("req-7"))
        #expect(try ControlAnswer.result(of: answer) == .string("done"))
        // Not a tag: too long, or with other characters; the line stays whole.
        #expect(ControlAnswer.splitTag("@" + String(repeating: "a", count: 65) + " ui").id == nil)
        #expect(ControlAnswer.splitTag("@a/b ui").id == nil)
    }

    /// The terminal's refusal comes back to `teller ctl` as its own words.
    @Test func anErrorAnswerIsThrownWithTheTerminalsWords() throws {
        do {
            _ = try ControlAnswer.result(of: ControlAnswer.error("no control 'x' on screen 'home'"))
            Issue.record("an error answer was taken as a result")
        } catch {
            #expect(error == .failed("no control 'x' on screen 'home'"))
        }
        #expect(throws: ControlError.failed("the terminal's answer is not JSON")) { try ControlAnswer.result(of: Data("<html>".utf8)) }
    }
}

/// The status JSON both `teller status` and `teller ctl status` print.
@Suite struct StatusJSONTests {
    @Test func anInstantIsUTCToTheSecond() {
        #expect(StatusJSON.timestamp(Date(timeIntervalSince1970: 1_796_156_222.9)) == "2026-12-01T20:17:02Z", "the fraction is cut, not rounded")
        #expect(StatusJSON.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    }

    @Test func aProblemIsItsKindDetailAndSinceOrNull() {
        #expect(StatusJSON.problem(nil) == .null)
        let problem = SyncProblem(kind: .certificateExpired, detail: "client_cert expired", since: Date(timeIntervalSince1970: 0))
        #expect(StatusJSON.problem(problem) == .object(["kind": .string("certificateExpired"), "detail": .string("client_cert expired"),
                                                        "since": .string("1970-01-01T00:00:00Z")]))
    }

    @Test func nothingPendingIsAnEmptyObjectAndNoOldestAge() {
        #expect(StatusJSON.pending(nil) == .object([:]))
        #expect(StatusJSON.oldestAge(nil, now: Date()) == .null)
    }
}
