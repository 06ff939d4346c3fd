import Foundation
import Testing
@testable import ProcessHarness

/// The real `teller run` binary as a child process on an offscreen
/// display, driven through `teller ctl`: taps land at element centres
/// found through the accessibility tree and travel as kernel-format events
/// through the same input path a panel uses.
final class TerminalProcess: @unchecked Sendable {
    let directory: TemporaryDirectory
    let teller = TestProducts.executable("teller")
    var child: ChildProcess?
    var extraConfiguration: [String]

    var socket: String { directory.file("run/control.sock") }

    /// - Parameter dataDirectory: where the database lives; `<directory>/data` by default.
    /// - Parameter without: default keys left out (`terminal_id` for a terminal not yet provisioned).
    init(directory: TemporaryDirectory = TemporaryDirectory("teller-e2e"), host: URL?, configuration: [String] = [], dataDirectory: String? = nil,
         without: Set<String> = []) throws {
        self.directory = directory
        try Data("demo-secret-T-0001\n".utf8).write(to: URL(fileURLWithPath: directory.file("secret")))
        chmod(directory.file("secret"), 0o600)
        var lines = ["terminal_id = T-0001", "branch = E2E", "data_dir = \(dataDirectory ?? directory.file("data"))",
                     "runtime_dir = \(directory.file("run"))", "display = offscreen", "offscreen_size = 800x480",
                     "secret_file = \(directory.file("secret"))", "request_timeout_s = 2", "retry_base_s = 0.2", "retry_cap_s = 1",
                     // Many terminals run at once on the test machine's two cores: none takes one
                     // ahead of the test runner. FramePriorityTests runs the real-time default.
                     "frame_priority = 0"]
        if let host { lines.append("host_url = \(host.absoluteString)") }
        extraConfiguration = configuration
        // A test's own setting replaces the default of the same key.
        let key = { (line: String) in line.split(separator: "=").first.map { $0.trimmingCharacters(in: .whitespaces) } }
        let overridden = Set(configuration.compactMap(key)).union(without)
        lines = lines.filter { key($0).map { !overridden.contains($0) } ?? true } + configuration
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: directory.file("teller.conf")))
    }

    /// Starts the terminal and waits for its first frame and control socket.
    /// - Parameters:
    ///   - fakeTime: a libfaketime spec (`@1970-01-02 00:00:00`, `-30d`) for
    ///     the terminal's wall clock; its monotonic clock stays real.
    ///   - environment: variables the terminal gets on top of this process's (`TZ`).
    func start(fakeTime: String? = nil, environment: [String: String] = [:]) async throws {
        let run = [teller, "run", "--config", directory.file("teller.conf")]
        var command = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        if let fakeTime {
            Self.removeStaleFaketimeSemaphores()
            command += ["FAKETIME_DONT_FAKE_MONOTONIC=1", "faketime", "-f", fakeTime]
        }
        let child = try command.isEmpty ? ChildProcess(teller, Array(run.dropFirst())) : ChildProcess("/usr/bin/env", command + run)
        self.child = child
        // Looked for each time the terminal logs: the control socket is made
        // before the line "control: PATH", and "ready:" comes after the first
        // frame, so one of the two lines is the last thing to wait for. 60 s: a
        // start takes a second here, but a loaded 2-core CI machine has taken 20.
        let ready = await child.waitForOutput(timeout: .seconds(60)) {
            child.stderr.contains("ready:") && FileManager.default.fileExists(atPath: self.socket)
        }
        guard ready, child.isRunning else {
            throw TerminalError.didNotStart("\(command + run) ended with status \(child.terminationStatus.map(String.init) ?? "none"): \(child.stderr)")
        }
    }

    /// The `faketime` wrapper keeps a semaphore and a shared-memory object
    /// named after its pid in /dev/shm and removes them only when it ends
    /// normally. A test that kills it leaves them behind, and a later wrapper
    /// that is given the same pid then refuses to start ("sem_open: File
    /// exists"). Objects whose process is gone are removed first. (Preloading
    /// libfaketime without the wrapper is no way out: its own set-up then
    /// moves `environ`, and a Swift program loses its arguments.)
    static func removeStaleFaketimeSemaphores() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []
        for name in names {
            guard let prefix = ["sem.faketime_sem_", "faketime_shm_"].first(where: name.hasPrefix),
                  let pid = pid_t(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink("/dev/shm/" + name)
        }
    }

    func stop(_ signal: Int32 = SIGTERM) async {
        await child?.stop(signal)
    }

    /// Processes still running this terminal's configuration (found in
    /// /proc): after ``stop(_:)`` there must be none, even when faketime
    /// stood between the test and the terminal.
    func processesStillRunning() -> [String] {
        let configuration = directory.file("teller.conf")
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.allSatisfy(\.isNumber) }.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.contains(configuration) && !((try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.contains(") Z ") ?? false)
        }
    }

    /// Runs `teller ctl` and returns its JSON answer.
    @discardableResult
    func ctl(_ words: String...) async throws -> Any {
        let result = try await ChildProcess.run(teller, ["ctl", "--socket", socket] + words, timeout: .seconds(30))
        guard result.status == 0 else { throw TerminalError.ctlFailed(words.joined(separator: " "), result.stderr) }
        let text = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? [:] : try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    func tap(_ identifiers: String...) async throws {
        for identifier in identifiers { try await ctl("tap", identifier) }
    }

    /// Taps the keys of a keypad: `keys("sign-in.pin", "1001")`.
    func keys(_ keypad: String, _ digits: String) async throws {
        for digit in digits { try await ctl("tap", "\(keypad).\(digit)") }
    }

    func status() async throws -> [String: Any] {
        try await ctl("status") as? [String: Any] ?? [:]
    }

    func screen() async throws -> String {
        try await status()["screen"] as? String ?? ""
    }

    /// Every label and value on screen, from the accessibility tree.
    func texts() async throws -> [String] {
        var found: [String] = []
        func walk(_ node: [String: Any]) {
            if let label = node["label"] as? String { found.append(label) }
            if let value = node["value"] as? String { found.append(value) }
            for child in node["children"] as? [[String: Any]] ?? [] { walk(child) }
        }
        // A tree that is not one would read as an empty screen, and a check
        // that something is absent would pass on it.
        guard let root = try await ctl("ui") as? [String: Any] else { throw TerminalError.ctlFailed("ui", "the answer is not an accessibility tree") }
        walk(root)
        return found
    }

    func identifiers() async throws -> [String] {
        var found: [String] = []
        func walk(_ node: Any) {
            if let node = node as? [String: Any] {
                if let identifier = node["identifier"] as? String { found.append(identifier) }
                for child in node["children"] as? [Any] ?? [] { walk(child) }
            }
        }
        walk(try await ctl("ui"))
        return found
    }

    /// Waits until some label or value on screen contains `text`.
    func waitForText(_ text: String, timeout: Duration = .seconds(30)) async throws -> Bool {
        try await eventuallyThrowing(timeout: timeout) { try await self.texts().contains { $0.contains(text) } }
    }

    func waitForScreen(_ name: String, timeout: Duration = .seconds(30)) async throws -> Bool {
        try await eventuallyThrowing(timeout: timeout) { try await self.screen() == name }
    }

    /// Operator 1001, PIN 1234, on the sign-in keypad.
    func signIn() async throws {
        try await keys("sign-in.pin", "1001")
        try await tap("sign-in.pin.enter")
        try await keys("sign-in.pin", "1234")
        try await tap("sign-in.pin.enter")
    }

    func openAccount(_ iban: String) async throws {
        try await tap("home.find-account")
        try await ctl("type", iban + "\n")
    }

    /// Amount digits on the cash-register keypad, then Review and Confirm.
    func enterAmount(_ digits: String) async throws {
        try await keys("amount.keys", digits)
        try await tap("amount.review")
    }
}

/// `eventually` for conditions that throw.
func eventuallyThrowing(timeout: Duration, interval: Duration = .milliseconds(100), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: interval)
    }
    return try await condition()
}

enum TerminalError: Error, CustomStringConvertible {
    case didNotStart(String)
    case ctlFailed(String, String)

    var description: String {
        switch self {
        case .didNotStart(let log): "teller run did not start: \(log)"
        case .ctlFailed(let command, let error): "teller ctl \(command) failed: \(error)"
        }
    }
}
