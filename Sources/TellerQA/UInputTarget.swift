import TellerControl
import TellerConfiguration
import SystemCalls
import Device
import FoundationEssentials
import Graphics
import Widgets

/// A terminal running in this machine (the virtual device), touched
/// through a uinput touchscreen and keyboard: every step goes through the
/// kernel's input stack and the terminal's evdev reader, like a real panel.
/// Element centres come from the control socket's `ui`; screenshots and
/// power cuts are asked of the host on a serial line (deploy/vm/teller_vm.py).
@MainActor
public final class UInputTarget: ScenarioTarget {
    public let socketPath: String
    /// The serial line to deploy/vm/teller_vm.py, open for reading and writing.
    let hostChannel: HostChannel?
    private var touch: TouchInjector?
    private var keyboard: KeyboardInjector?

    public init(socketPath: String, hostChannelPath: String?) throws {
        self.socketPath = socketPath
        do {
            hostChannel = try hostChannelPath.map { (path) throws(SystemCallError) in HostChannel(try FileDescriptor.open(forUpdating: path)) }
        } catch {
            throw ControlError.failed("cannot open the host channel \(hostChannelPath ?? ""): \(error)")
        }
    }

    /// Creates the uinput devices once the screen size is known, and gives
    /// the terminal's hotplug watch time to open them.
    private func injectors() async throws -> (TouchInjector, KeyboardInjector) {
        if let touch, let keyboard { return (touch, keyboard) }
        let root = try await accessibilityTree()
        let size = Size(width: root.frame.width, height: root.frame.height)
        let touch = try TouchInjector(transform: DisplayTransform(rotation: .degrees0, physicalSize: size), name: "Teller QA touchscreen")
        let keyboard = try KeyboardInjector(name: "Teller QA keyboard")
        // At a person's pace, so the terminal does not take the keyboard for a scanner.
        keyboard.keyDelayMicroseconds = 35_000
        self.touch = touch
        self.keyboard = keyboard
        try await Task.sleep(for: .milliseconds(1500))
        return (touch, keyboard)
    }

    public func perform(_ command: ControlCommand) async throws {
        let (touch, keyboard) = try await injectors()
        switch command {
        case .tap(let identifier):
            let root = try await accessibilityTree()
            guard let node = root.node(identifier: identifier) else {
                throw ControlError.failed("no element '\(identifier)' on screen '\(root.identifier ?? "?")'")
            }
            guard node.enabled else { throw ControlError.failed("'\(identifier)' is disabled on screen '\(root.identifier ?? "?")'") }
            guard node.visible else {
                throw ControlError.failed("'\(identifier)' is not visible on screen '\(root.identifier ?? "?")' (scrolled out of view or off the screen)")
            }
            try touch.tap(Point(x: node.frame.x + node.frame.width / 2, y: node.frame.y + node.frame.height / 2))
        case .touch(let x, let y):
            try touch.tap(Point(x: x, y: y))
        case .swipe(let x1, let y1, let x2, let y2):
            try touch.swipe(from: Point(x: x1, y: y1), to: Point(x: x2, y: y2))
        case .type(let text):
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                try keyboard.type(String(line), pressEnter: index < lines.count - 1)
            }
        case .play(let path):
            let recording = try EvemuRecording(contentsOf: path)
            let device = try UInputDevice(capabilities: recording.capabilities)
            try await Task.sleep(for: .milliseconds(1500))  // hotplug: the terminal opens the new device
            try device.replay(recording.events, preservingTiming: true)
            try await Task.sleep(for: .milliseconds(300))
            device.destroy()
        default:
            _ = try await control(command)
        }
        try await settle()
    }

    /// Lets the terminal read what the kernel queued, then waits for its view models.
    private func settle() async throws {
        try await Task.sleep(for: .milliseconds(100))
        _ = try await control(.settle)
    }

    public func accessibilityTree() async throws -> AccessibilityNode {
        let tree = try await control(.ui)
        return try JSONDecoder().decode(AccessibilityNode.self, from: tree.encoded())
    }

    /// One control-socket round trip; returns the answer's `result`.
    private func control(_ command: ControlCommand) async throws -> JSONValue {
        try ControlAnswer.result(of: ControlClient.send(command.line, to: socketPath))
    }

    public func screenshot(_ name: String) async throws -> String {
        guard let hostChannel else { return "screenshot \(name): skipped (no host channel for screendumps)" }
        try await settle()
        try await Task.sleep(for: .milliseconds(200))
        let reply = try hostChannel.ask("SCREENDUMP \(name)")
        return "screenshot \(name): screendump taken by the host (\(reply))"
    }

    /// The host cuts or restores the guest's network link (qemu's `set_link`) and answers once it has.
    public func setLink(up: Bool) async throws -> String {
        let state = up ? "up" : "down"
        guard let hostChannel else { return "link \(state): skipped (no host channel)" }
        let reply = try hostChannel.ask("LINK \(state)")
        guard reply == "OK" else { throw ControlError.failed("link \(state): the host answered '\(reply)'") }
        return "link \(state): done by the host"
    }

    public func powerCut(file: String, line: Int) async throws -> String {
        guard let hostChannel else { return "power-cut: skipped (no host channel)" }
        try hostChannel.line.writeAll("POWERCUT \(file) \(line)\n".utf8)
        // The host kills the machine; nothing after this line runs in this boot.
        while true { try await Task.sleep(for: .seconds(60)) }
    }
}

/// The serial line to the virtual device's host, closed with the target.
final class HostChannel {
    let line: FileDescriptor

    init(_ line: consuming FileDescriptor) {
        self.line = line
    }

    /// Sends one line to the host and returns its one-line answer, read a
    /// byte at a time so nothing after it is taken from the channel.
    func ask(_ request: String) throws -> String {
        try line.writeAll("\(request)\n".utf8)
        var reply: [UInt8] = []
        while !reply.contains(UInt8(ascii: "\n")) {
            let byte = try line.read(upTo: 1)
            if byte.isEmpty { break }
            reply += byte
        }
        return String(decoding: reply, as: UTF8.self).trimmingWhitespace()
    }
}
