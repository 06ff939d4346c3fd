import FoundationEssentials
import Glibc
import Synchronization
import SystemCalls

/// A child process whose stdout and stderr are collected as they arrive, so
/// a test (or teller-bench) can wait for a line without blocking Swift's
/// cooperative threads.
///
/// Spawned with `posix_spawn` and an empty signal mask: Foundation's
/// `Process` passes on the mask of the thread that starts it, and the
/// dispatch threads tests run on block SIGTERM, which would make "exits
/// cleanly on SIGTERM" untestable.
public final class ChildProcess: Sendable {
    /// The two output streams collected.
    public enum Stream: Sendable { case stdout, stderr }

    public let command: String
    public let pid: pid_t
    private let state = Mutex(State())

    private struct State {
        var stdout = Data()
        var stderr = Data()
        var streamsEnded = 0
        var exitStatus: Int32?
        /// Counts what the reader threads did (output arrived, a stream
        /// ended), so a waiter knows whether anything changed since it looked.
        var generation: UInt64 = 0
        /// Tasks suspended in ``outputChanged(since:until:)``, by number;
        /// the reader threads resume them all.
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var lastWaiter: UInt64 = 0
        /// Waiters whose deadline passed before they were in place.
        var expired: Set<UInt64> = []

        /// After the reader threads changed something: the next generation,
        /// and the waiters to resume (outside the lock).
        mutating func changed() -> [CheckedContinuation<Void, Never>] {
            generation += 1
            defer { waiters = [:] }
            return Array(waiters.values)
        }
    }

    /// Starts `executable` with `arguments`; `stdin` is written and closed.
    public init(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws {
        command = ([executable] + arguments).joined(separator: " ")
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0, pipe(&errors) == 0 else {
            throw ChildProcessError.failed("pipe", errno, "")
        }
        // Other children spawned meanwhile must not inherit these ends, or EOF would wait for them.
        for fd in input + output + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        // Its own process group, so that a signal reaches what it starts too:
        // `faketime` runs the terminal as its child, and killing only faketime
        // would leave the terminal running after the test.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let code = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        for fd in [input[0], output[1], errors[1]] { close(fd) }
        guard code == 0 else {
            for fd in [input[1], output[0], errors[0]] { close(fd) }
            throw ChildProcessError.failed(command, code, String(cString: strerror(code)))
        }
        pid = child
        startReading(output[0], into: .stdout)
        startReading(errors[0], into: .stderr)
        if let stdin {
            stdin.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(input[1], buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 { if errno == EINTR { continue } else { break } }
                    offset += written
                }
            }
        }
        close(input[1])
    }

    /// A reader thread per pipe: blocking reads until the child closes its end.
    private func startReading(_ fd: Int32, into stream: Stream) {
        KernelThread.detach { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                let waiters = self?.state.withLock {
                    switch stream {
                    case .stdout: $0.stdout.append(contentsOf: buffer[..<count])
                    case .stderr: $0.stderr.append(contentsOf: buffer[..<count])
                    }
                    return $0.changed()
                }
                waiters?.forEach { $0.resume() }
            }
            close(fd)
            let waiters = self?.state.withLock {
                $0.streamsEnded += 1
                return $0.changed()
            }
            waiters?.forEach { $0.resume() }
        }
    }

    /// Waits until `condition` holds, checking it when the child writes to
    /// stdout or stderr or closes them, not on a timer: the reader threads
    /// wake the waiter. False when `timeout` passed first, or both streams
    /// ended (the child is gone) without it holding.
    public func waitForOutput(timeout: Duration, until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (generation, ended) = state.withLock { ($0.generation, $0.streamsEnded >= 2) }
            if condition() { return true }
            if ended || ContinuousClock.now >= deadline { return false }
            await outputChanged(since: generation, until: deadline)
        }
    }

    /// Returns once the reader threads changed something after `generation`,
    /// or at `deadline`.
    private func outputChanged(since generation: UInt64, until deadline: ContinuousClock.Instant) async {
        let id = state.withLock {
            $0.lastWaiter += 1
            return $0.lastWaiter
        }
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
            self?.expire(id)
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.generation != generation || state.expired.remove(id) != nil { return true }
                state.waiters[id] = continuation
                return false
            }
            if now { continuation.resume() }
        }
        timer.cancel()
        state.withLock { _ = $0.expired.remove(id) }
    }

    /// The deadline of waiter `id` passed: resume it, or let it know before it suspends.
    private func expire(_ id: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
            state.expired.insert(id)
            return nil
        }
        waiter?.resume()
    }

    /// True until the child has exited (and has been reaped here).
    public var isRunning: Bool { state.withLock { reap(&$0) == nil } }
    /// The exit code, or 128 + the signal number that ended it; nil while running.
    public var terminationStatus: Int32? { state.withLock { reap(&$0) } }
    public var stdout: String { state.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    public var stderr: String { state.withLock { String(decoding: $0.stderr, as: UTF8.self) } }

    private func reap(_ state: inout State) -> Int32? {
        if let exitStatus = state.exitStatus { return exitStatus }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        state.exitStatus = Self.exitStatus(status)
        return state.exitStatus
    }

    /// The exit code, or 128 + the signal: WIFEXITED / WEXITSTATUS / WTERMSIG
    /// are macros Swift cannot import.
    private static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// The first line of `stream` that contains `text`, looked for each time
    /// the child writes; nil if its output ended or `timeout` passed first.
    public func firstLine(containing text: String, in stream: Stream, timeout: Duration) async -> String? {
        var line: String?
        _ = await waitForOutput(timeout: timeout) {
            let output = stream == .stdout ? self.stdout : self.stderr
            line = output.split(separator: "\n").first { $0.contains(text) }.map(String.init)
            return line != nil
        }
        return line
    }

    /// Polls until the process has ended or `timeout` passed; true if it ended.
    @discardableResult
    public func waitForExit(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        guard !isRunning else { return false }
        // What the process wrote last may still be in the pipes: wait for both to end.
        _ = await waitForOutput(timeout: .seconds(1)) { state.withLock { $0.streamsEnded >= 2 } }
        return true
    }

    /// Sends `signal` and waits for the exit (SIGKILL after 5 s if needed).
    public func stop(_ signal: Int32 = SIGTERM) async {
        if isRunning {
            kill(-pid, signal)
            if await waitForExit(timeout: .seconds(5)) { return }
            kill(-pid, SIGKILL)
        }
        await waitForExit(timeout: .seconds(5))
    }

    /// Blocks until the child has exited; for `defer` and `deinit`, where nothing can be awaited.
    public func waitBlocking() {
        state.withLock {
            if $0.exitStatus == nil {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                $0.exitStatus = Self.exitStatus(status)
            }
        }
    }

    /// Kills without waiting: for `defer` and `deinit`, where nothing can be awaited.
    public func killNow() {
        if isRunning {
            kill(-pid, SIGKILL)
            waitBlocking()
        }
    }

    deinit { killNow() }

    /// Runs a short command to its end and returns its status and output.
    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil, timeout: Duration = .seconds(20)) async throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(executable, arguments, stdin: stdin)
        guard await child.waitForExit(timeout: timeout) else {
            await child.stop(SIGKILL)
            throw ChildProcessError.timedOut(child.command)
        }
        return (child.terminationStatus ?? -1, child.stdout, child.stderr)
    }

    /// The full path of a program on `PATH` (or the usual sbin places).
    public static func locate(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

extension ChildProcess {
    /// iproute2's `ip`, for network namespaces.
    public static func ip() throws -> String {
        guard let path = locate("ip") else { throw ChildProcessError.missing("ip (iproute2)") }
        return path
    }
}

public enum ChildProcessError: Error, CustomStringConvertible {
    case timedOut(String)
    case failed(String, Int32, String)
    case missing(String)

    public var description: String {
        switch self {
        case .timedOut(let command): "'\(command)' did not finish in time"
        case .failed(let command, let status, let stderr): "'\(command)' exited \(status): \(stderr)"
        case .missing(let program): "\(program) is not installed"
        }
    }
}

/// Waits until `condition` holds, checking every `interval`, for at most
/// `timeout`. Returns whether it held.
public func eventually(timeout: Duration, interval: Duration = .milliseconds(50), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: interval)
    }
}

/// A TCP port on 127.0.0.1 that nothing listened on a moment ago.
public func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ChildProcessError.failed("socket", errno, "") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw ChildProcessError.failed("bind 127.0.0.1:0", errno, "") }
    return Int(UInt16(bigEndian: address.sin_port))
}
