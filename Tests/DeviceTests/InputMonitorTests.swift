import SystemCalls
import Glibc
import Testing
@testable import Device

/// Hotplug without real devices: inotify on a scratch directory, with plain
/// files standing in for event nodes (they fail to open as evdev devices,
/// which proves the monitor saw and tried them).
@Suite("InputMonitor hotplug")
struct InputMonitorTests {
    func scratch() -> String {
        var template = Array("/tmp/teller-input-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        return dir
    }

    func touch(_ path: String) {
        let fd = open(path, O_CREAT | O_WRONLY, 0o600)
        close(fd)
    }

    func failedPaths(_ notices: [InputNotice]) -> [String] {
        notices.compactMap { notice in
            if case .failed(.notAnEventDevice(let path, _)) = notice { path } else { nil }
        }
    }

    @Test func seesNodesCreatedAfterStart() throws {
        let dir = scratch()
        defer { _ = try? Syscall.listDirectory(dir).forEach { unlink(dir + "/" + $0) }; rmdir(dir) }
        touch(dir + "/event0")
        let monitor = InputMonitor(configuration: .init(directory: dir, transform: DisplayTransform(rotation: .degrees0, physicalSize: .init(width: 800, height: 480))))
        #expect(failedPaths(try monitor.start()) == [dir + "/event0"])
        touch(dir + "/event1")
        touch(dir + "/mouse0")  // legacy mousedev nodes are not evdev
        // One poll, two checks: a second poll would find nothing left and pass whatever happened.
        let seen = failedPaths(monitor.pollAll())
        #expect(seen.contains(dir + "/event1"))
        #expect(!seen.contains(dir + "/mouse0"), "a mousedev node was opened as an event device")
    }

    @Test func waitsForTheDirectoryToAppear() throws {
        let parent = scratch()
        let dir = parent + "/input"
        defer {
            _ = try? Syscall.listDirectory(dir).forEach { unlink(dir + "/" + $0) }
            rmdir(dir)
            rmdir(parent)
        }
        let monitor = InputMonitor(configuration: .init(directory: dir, transform: DisplayTransform(rotation: .degrees0, physicalSize: .init(width: 800, height: 480))))
        #expect(try monitor.start().isEmpty)
        mkdir(dir, 0o755)
        touch(dir + "/event4")
        var seen = failedPaths(monitor.pollAll())
        touch(dir + "/event5")  // after the watch moved to the new directory
        seen += failedPaths(monitor.pollAll())
        #expect(seen.contains(dir + "/event4"))
        #expect(seen.contains(dir + "/event5"))
    }
}

/// A device refused at open (issue 42, item 12): one that just appeared in
/// a group this process is in, before udev gave the group read access, is
/// tried again quietly at udev's change; otherwise the advice fits the case.
@Suite struct InputPermissionNoticeTests {
    static func status(group: gid_t, mode: mode_t) throws -> FileStatus {
        var info = stat()
        info.st_mode = S_IFCHR | mode
        info.st_gid = group
        return try #require(FileStatus(info))
    }

    /// The error of a single `.failed` notice; nil for anything else.
    static func failure(_ notices: [InputNotice]) -> InputError? {
        guard notices.count == 1, case .failed(let error) = notices[0] else { return nil }
        return error
    }

    @Test func aNewDeviceInTheGroupBeforeUdevSetItsModeIsQuiet() throws {
        let notices = InputMonitor.permissionNotice(path: "/dev/input/event9", status: try Self.status(group: 105, mode: 0o600), groups: [0, 105], hotplug: true)
        #expect(notices.isEmpty)
    }

    @Test func atStartTheSameSaysTheGroupLacksReadAccessNotJoinTheGroup() throws {
        let notices = InputMonitor.permissionNotice(path: "/dev/input/event9", status: try Self.status(group: 105, mode: 0o600), groups: [0, 105], hotplug: false)
        let error = try #require(Self.failure(notices), "\(notices)")
        #expect(error == .groupCannotRead(path: "/dev/input/event9", group: Syscall.groupName(105), mode: 0o600))
        #expect(error.description.contains("although the Teller service user is in its group"))
        #expect(!error.description.contains("add the Teller service user"))
    }

    @Test func outsideTheGroupTheAdviceIsToJoinIt() throws {
        for hotplug in [true, false] {
            let notices = InputMonitor.permissionNotice(path: "/dev/input/event9", status: try Self.status(group: 105, mode: 0o660), groups: [1000], hotplug: hotplug)
            let error = try #require(Self.failure(notices), "\(notices)")
            #expect(error == .permissionDenied(path: "/dev/input/event9"))
        }
    }
}
