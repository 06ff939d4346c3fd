@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
import ProcessTestSupport

/// SIGKILLs a process that is enqueueing as fast as it can, at random
/// moments, and checks after every kill that every row it acknowledged is
/// on disk, whole, with its exact payload, and that ids only grow.
@Suite(.tags(.realProcess, .slow)) struct OutboxCrashTests {
    struct Acknowledged: Hashable {
        let id: Int64
        let key: String
        let payloadHex: String
    }

    @Test func everyAcknowledgedRowSurvivesSIGKILL() async throws {
        let directory = TemporaryDirectory("crash")
        let writer = TestProducts.executable("outbox-crash-writer")
        var acknowledged: [String: Acknowledged] = [:]
        var lastMaxID: Int64 = 0
        let cycles = 24

        for cycle in 0..<cycles {
            let output = try await runAndKill(writer, arguments: [directory.path], after: .milliseconds(Int.random(in: 30...250)))
            // Only whole lines count: the last one may have been cut by the kill.
            for line in output.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                let fields = line.split(separator: " ")
                try #require(fields.count == 3, "malformed acknowledgement line '\(line)'")
                let row = Acknowledged(id: Int64(fields[0])!, key: String(fields[1]), payloadHex: String(fields[2]))
                acknowledged[row.key] = row
            }

            let store = try TellerStore(dataDirectory: directory.path, limits: Fixtures.limits)
            #expect(try await store.integrityReport() == "ok", "cycle \(cycle)")
            let rows = try await store.withDatabase { try $0.query("SELECT id, idempotency_key, payload FROM outbox ORDER BY id") {
                Acknowledged(id: $0.int64(0), key: $0.text(1), payloadHex: $0.blob(2).map { String(format: "%02x", $0) }.joined())
            } }
            // Every row decodes into a whole entry: nothing partial.
            let entries = try await store.entries()
            #expect(entries.count == rows.count)
            for row in rows {
                let payload = try #require(hexBytes(row.payloadHex))
                let wire = try JSONDecoder().decode(WireTransaction.self, from: Data(payload))
                #expect(wire.clientReference == String(row.key.prefix(8)).uppercased())
            }
            let stored = Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0) })
            for ack in acknowledged.values {
                #expect(stored[ack.key] == ack, "acknowledged row \(ack.id) lost or changed after cycle \(cycle)")
            }
            #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.id < $1.id })
            // Ids keep growing across restarts (AUTOINCREMENT never reuses).
            if let newMax = rows.last?.id {
                #expect(newMax >= lastMaxID)
                lastMaxID = newMax
            }
        }
        #expect(acknowledged.count > cycles, "the writer acknowledged too few rows to prove anything")
    }

    /// Starts `path`, lets it run for `delay`, SIGKILLs it and returns what it printed.
    /// Through ChildProcess's reader threads, not Foundation's `Process` with a
    /// pipe's `readabilityHandler`: tearing that handler down beside other
    /// tests' dispatch sources crashed libdispatch's epoll manager thread
    /// (swift-corelibs-libdispatch#949) in a `tools/test fast` run here.
    func runAndKill(_ path: String, arguments: [String], after delay: Duration) async throws -> String {
        let writer = try ChildProcess(path, arguments)
        try await Task.sleep(for: delay)
        #expect(writer.isRunning, "the writer exited by itself: \(writer.terminationStatus ?? -1)")
        await writer.stop(SIGKILL)
        #expect(writer.terminationStatus == 128 + SIGKILL, "the writer ended with \(writer.terminationStatus.map(String.init) ?? "nothing"), not SIGKILL")
        return writer.stdout
    }

    func hexBytes(_ hex: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
