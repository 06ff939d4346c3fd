import Foundation

/// A fresh directory under the system temp dir, removed when released.
final class TemporaryDirectory: @unchecked Sendable {
    let path: String

    init(_ label: String = "teller") {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(label)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

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
