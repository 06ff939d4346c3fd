import Foundation
@testable import ProcessHarness

/// `teller check-config` on a teller.conf holding `text`, in a fresh
/// temporary directory named after `label`: its exit status and everything it printed.
func checkConfig(_ text: String, label: String) async throws -> (status: Int32, output: String) {
    let directory = TemporaryDirectory(label)
    let file = directory.file("teller.conf")
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    let result = try await ChildProcess.run(TestProducts.executable("teller"), ["check-config", file])
    return (result.status, result.stdout + result.stderr)
}
