import FoundationEssentials
import Glibc
import Testing
import Device
import SystemCalls

/// `VirtualTerminal` on files that are not VTs: each is refused at open or
/// at its first, read-only ioctl (KDGETMODE), before any mode could be set,
/// with an error naming the path, the call and the kernel's reason. This
/// machine's real consoles (/dev/tty0, /dev/tty1…) are never opened here:
/// a test must not lock the console of the machine it runs on.
@Suite struct VirtualTerminalTests {
    private func openingFails(_ path: String) throws -> ConsoleError {
        let attempt = Result { () throws(ConsoleError) -> VirtualTerminal in try VirtualTerminal(path: path) }
        return try #require(attempt.failure, "\(path) opened as a virtual terminal")
    }

    @Test func devNullIsNotAVirtualTerminal() throws {
        let error = try openingFails("/dev/null")
        #expect(error.kind == .notAVirtualTerminal)
        #expect(error.path == "/dev/null")
        #expect(error.operation == "KDGETMODE")
        #expect(error.errno == .notATerminalOrDevice)
        #expect(error.description.hasPrefix("/dev/null: KDGETMODE failed: \(Errno.notATerminalOrDevice) (errno \(ENOTTY))"), "\(error)")
        #expect(error.description.contains("not a virtual terminal"), "\(error)")
    }

    @Test func aRegularFileIsNotAVirtualTerminal() throws {
        var template = Array("/tmp/teller-vt-XXXXXX".utf8CString)
        let directory = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = "\(directory)/tty1"
        try Data("not a console\n".utf8).write(to: URL(fileURLWithPath: file))

        let error = try openingFails(file)
        #expect(error.kind == .notAVirtualTerminal)
        #expect(error.path == file)
        #expect(error.operation == "KDGETMODE")
        #expect(error.description.hasPrefix("\(file): KDGETMODE failed: Inappropriate ioctl for device"), "\(error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("not a console\n".utf8), "the file is left as it was")

        let folder = try openingFails(directory)
        #expect(folder.path == directory)
        #expect(folder.operation == "open")
        #expect(folder.description.hasPrefix("\(directory): open failed: Is a directory"), "\(folder)")
    }

    @Test func aMissingPathIsNoDevice() throws {
        let path = "/nonexistent/teller-vt/tty9"
        let error = try openingFails(path)
        #expect(error.kind == .noDevice)
        #expect(error.path == path)
        #expect(error.operation == "open")
        #expect(error.errno == .noSuchFile)
        #expect(error.description.hasPrefix("\(path): open failed: No such file or directory (errno \(ENOENT))"), "\(error)")
    }

    @Test func errorsTellTheTechnicianWhatToDo() {
        let denied = ConsoleError(kind: .permissionDenied, path: "/dev/tty1", operation: "KDSETMODE graphics", errno: .notPermitted)
        #expect(denied.description.hasPrefix("/dev/tty1: KDSETMODE graphics failed: Operation not permitted (errno \(EPERM))"), "\(denied)")
        #expect(denied.description.contains("run it as root"), "\(denied)")
        let console = ConsoleError(kind: .notNumbered(DeviceNumber(major: 4, minor: 0)), path: "/dev/tty0", operation: nil, errno: nil)
        #expect(console.description.hasPrefix("/dev/tty0 (device 4:0): a console, but not one numbered virtual terminal"), "\(console)")
        let stuck = ConsoleError(kind: .notActivated(stillActive: 2, after: .seconds(2)), path: "/dev/tty1", operation: "VT_ACTIVATE 1", errno: nil)
        #expect(stuck.description.hasPrefix("/dev/tty1: VT_ACTIVATE 1 failed: VT 2 was still the active one"), "\(stuck)")
    }

    /// The values <linux/kd.h> gives the modes, which the kernel keeps as ABI.
    @Test func modesAreTheKernelsValues() {
        #expect(ConsoleDisplayMode.text.rawValue == 0x00)
        #expect(ConsoleDisplayMode.graphics.rawValue == 0x01)
        #expect(ConsoleKeyboardMode.unicode.rawValue == 0x03)
        #expect(ConsoleKeyboardMode.off.rawValue == 0x04)
        #expect("\(ConsoleDisplayMode(rawValue: 2))" == "mode 2")
    }

    /// Locked is graphics with the keyboard off, whichever VT is shown.
    @Test func lockedIsGraphicsWithTheKeyboardOff() {
        #expect(ConsoleState(display: .graphics, keyboard: .off, activeNumber: 1).isLocked)
        #expect(ConsoleState(display: .graphics, keyboard: .off, activeNumber: 7).isLocked)
        #expect(!ConsoleState(display: .text, keyboard: .off, activeNumber: 1).isLocked)
        #expect(!ConsoleState(display: .graphics, keyboard: .unicode, activeNumber: 1).isLocked)
        #expect(!ConsoleState(display: .graphics, keyboard: .mediumRaw, activeNumber: 1).isLocked)
    }
}
