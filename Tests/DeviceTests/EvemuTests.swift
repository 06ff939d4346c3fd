import Glibc
import Testing
@testable import Device

@Suite("evemu recordings")
struct EvemuTests {
    @Test func readsTheDeviceDescription() throws {
        let recording = try Fixture.recording("two-finger.evemu")
        let caps = recording.capabilities
        #expect(caps.name == "ILITEK ILITEK-TP")
        #expect(caps.id == InputDeviceID(bustype: 3, vendor: 0x222a, product: 1, version: 0x110))
        #expect(caps.properties == [.direct])
        #expect(caps.codes[.key] == [.buttonTouch])
        #expect(caps.absoluteAxes[.absMTPositionX] == AbsoluteAxis(minimum: 0, maximum: 4095))
        #expect(caps.absoluteAxes[.absMTSlot]?.maximum == 9)
        #expect(recording.events.count == 30)
        #expect(recording.events[1] == InputEvent(time: .zero, type: .absolute, code: .absMTTrackingID, value: 100))
        #expect(recording.events.last == InputEvent(time: EventTime(seconds: 0, microseconds: 40_000), type: .synchronization, code: .synReport, value: 0))
    }

    @Test(arguments: ["two-finger.evemu", "syn-dropped.evemu", "qemu-usb-tablet.evemu", "keyboard.evemu", "scanner.evemu"])
    func writeThenReadIsIdentity(name: String) throws {
        let original = try Fixture.recording(name)
        let again = try EvemuRecording(parsing: original.text)
        #expect(again == original)
    }

    /// Descriptions written by libevemu's own evemu_write (from our fixtures, via
    /// ctypes): the real tool's output, comments and all, reads back the same.
    @Test(arguments: ["two-finger", "keyboard"])
    func readsDescriptionsWrittenByLibevemu(name: String) throws {
        let ours = try Fixture.recording(name + ".evemu")
        let theirs = try Fixture.recording(name + ".described-by-libevemu.evemu")
        #expect(theirs.capabilities == ours.capabilities)
        #expect(theirs.events.isEmpty)
    }

    @Test func writerUsesEvemuLayout() throws {
        let text = try Fixture.recording("two-finger.evemu").text
        #expect(text.contains("\nN: ILITEK ILITEK-TP\n"))
        #expect(text.contains("\nI: 0003 222a 0001 0110\n"))
        #expect(text.contains("\nB: 03 03 00 00 00 00 80 60 02\n"))
        #expect(text.contains("\nA: 35 0 4095 0 0 0\n"))
        #expect(text.contains("\nE: 0.024000 0003 0039 -1\n") || text.contains("\nE: 0.024000 0003 0039 -001\n"))
    }

    static let header = "N: Broken\nI: 0003 0001 0002 0003\n"

    @Test(arguments: [
        (header + "X: 1 2 3\n", 3, "unknown line type 'X:'"),
        (header + "B: 03 zz 00 00 00 00 00 00 00\n", 3, "bitmask byte 'zz'"),
        (header + "B: 03 00 00\n", 3, "B: needs an event type and 8 bitmask bytes"),
        (header + "P: 02 00 00 00 00 00 00\n", 3, "P: needs 8 bitmask bytes, found 7"),
        (header + "A: 00 0 4095 0\n", 3, "A: needs a code and min max fuzz flat"),
        (header + "A: 00 4095 0 0 0 0\n", 3, "minimum 4095 above maximum 0"),
        (header + "# fine\nE: 0.000100 0003 0000 12\nE: 0.1 0003 0000 12\n", 5, "is not <seconds>.<6-digit microseconds>"),
        (header + "E: 1.000000 0003 0000 12\nE: 0.500000 0003 0000 12\n", 4, "goes back before the previous event"),
        (header + "E: 0.000000 0003 0000 twelve\n", 3, "event value 'twelve' is not a decimal integer"),
        ("I: 0003 0001 0002\n", 1, "I: needs 4 hex numbers"),
        ("I: 0003 0001 0002 0003\n", 0, "no N: line"),
    ])
    func malformedFilesNameTheLine(text: String, line: Int, problem: String) {
        #expect {
            try EvemuRecording(parsing: text)
        } throws: { error in
            guard let error = error as? EvemuError else { return false }
            return error.line == line && error.problem.contains(problem)
        }
    }

    /// "\r\n" is one Character in Swift; a file saved on Windows once read as a single line.
    @Test func readsWindowsLineEndings() throws {
        let recording = try EvemuRecording(parsing: "N: Windows\r\nI: 0003 0001 0002 0003\r\nE: 0.000001 0001 001e 1\r\n")
        #expect(recording.capabilities.name == "Windows")
        #expect(recording.capabilities.id == InputDeviceID(bustype: 3, vendor: 1, product: 2, version: 3))
        #expect(recording.events == [InputEvent(time: EventTime(seconds: 0, microseconds: 1), type: .key, code: .keyA, value: 1)])
    }

    @Test func errorMessageNamesFileAndLine() throws {
        let path = "/tmp/teller-device-tests-\(getpid()).evemu"
        defer { unlink(path) }
        let file = try #require(fopen(path, "w"))
        fputs(Self.header + "E: 0.000000 0003 0000 1\nE: nonsense\n", file)
        fclose(file)
        #expect {
            try EvemuRecording(contentsOf: path)
        } throws: { error in
            String(describing: error).hasPrefix("\(path):4: E: needs time, type, code and value, found 1 fields")
        }
        #expect(throws: EvemuError.self) { try EvemuRecording(contentsOf: "/nonexistent/recording.evemu") }
    }
}
