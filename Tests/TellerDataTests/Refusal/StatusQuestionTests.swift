@testable import ProcessHarness
import Foundation
import Testing
@testable import TellerData
import ProcessTestSupport

/// `teller status --settled` and `--drained`: what deploy/lib/common.sh and
/// the image's health gate ask, answered in the exit code, on real
/// databases; never a 0 they could take for "empty" when teller could not
/// read the queue.
@Suite(.tags(.realProcess)) struct StatusQuestionTests {
    static let notSettled: Int32 = 10

    @Test func queuedRowsAreNeitherSettledNorDrained() async throws {
        let root = TemporaryDirectory("teller-status-question")
        let data = root.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        try await BrokenDataDirectory.tellerDatabase(at: (data as NSString).appendingPathComponent(TellerStore.fileName), rows: 3)

        let settled = try await TellerStatusProcess.run(dataDirectory: data, ["--settled"])
        #expect(settled.status == Self.notSettled, "\(settled)")
        #expect(settled.stdout == "3 transaction(s) are still queued, 0 rejection(s) are not acknowledged and 0 need review\n", "\(settled)")
        let drained = try await TellerStatusProcess.run(dataDirectory: data, ["--drained"])
        #expect(drained.status == Self.notSettled, "\(drained)")
        #expect(drained.stdout == "3 transaction(s) are still queued\n", "\(drained)")
    }

    @Test func anEmptyQueueIsSettledAndDrained() async throws {
        let root = TemporaryDirectory("teller-status-question")
        let data = root.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        try await BrokenDataDirectory.tellerDatabase(at: (data as NSString).appendingPathComponent(TellerStore.fileName), rows: 0)

        let settled = try await TellerStatusProcess.run(dataDirectory: data, ["--settled"])
        #expect(settled.status == 0, "\(settled)")
        #expect(settled.stdout.hasPrefix("settled: nothing is queued"), "\(settled)")
        let drained = try await TellerStatusProcess.run(dataDirectory: data, ["--drained"])
        #expect(drained.status == 0, "\(drained)")
    }

    /// A database status refuses keeps its refusal's code: a script never reads "settled" into it.
    @Test(arguments: [BrokenDataDirectory.Case.missingDatabase, .zeroLength, .foreign])
    func aRefusedDatabaseIsNeverSettled(_ kind: BrokenDataDirectory.Case) async throws {
        let broken = try await BrokenDataDirectory(kind)
        let result = try await TellerStatusProcess.run(dataDirectory: broken.dataDirectory, ["--settled"])
        #expect(result.status != 0 && result.status != Self.notSettled, "\(kind): \(result)")
        #expect(result.stdout.isEmpty, "\(kind): \(result)")
    }

    @Test func bothQuestionsAtOnceAreBadUsage() async throws {
        let root = TemporaryDirectory("teller-status-question")
        let result = try await TellerStatusProcess.run(dataDirectory: root.path, ["--settled", "--drained"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("give one"), "\(result)")
    }
}
