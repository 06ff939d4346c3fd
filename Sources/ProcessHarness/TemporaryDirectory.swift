import FoundationEssentials

/// A fresh directory under the system temp dir, removed when released.
public final class TemporaryDirectory: Sendable {
    public let path: String

    /// The system's directory for temporary files: `TMPDIR`, else /tmp.
    public static var systemPath: String {
        var path = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path.isEmpty ? "/tmp" : path
    }

    /// Creates `<parent>/<label>-<UUID>`.
    /// - Throws: what creating the directory throws (a `parent` that cannot be written).
    public init(_ label: String, in parent: String) throws {
        path = "\(parent)/\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Creates `<label>-<UUID>` in ``systemPath``; a temp dir that cannot be written stops the test.
    public convenience init(_ label: String = "teller") {
        try! self.init(label, in: Self.systemPath)
    }

    public func file(_ name: String) -> String { "\(path)/\(name)" }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The package's built executables, found beside the running test bundle.
enum TestProducts {
    static func executable(_ name: String) -> String {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        // The runner may live inside an .xctest bundle directory.
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        fatalError("\(name) is not built next to \(runner.path); run `swift build` before `swift test`")
    }
}
