import TellerControl
import TellerConfiguration
import SystemCalls
import Device
import FoundationEssentials
import Graphics
import TellerCore
import TellerFeatures
import Widgets

/// `teller ctl` commands. touch, tap, type and play inject kernel-format
/// events into the input monitor, the path real devices use; nothing here
/// calls a view model directly.
extension TerminalApp: ControlHandler {
    public func handle(_ command: ControlCommand) async throws -> JSONValue {
        switch command {
        case .status:
            return await statusReport()
        case .ui:
            return try JSONValue(parsing: Data(try accessibilityTree().json(prettyPrinted: false).utf8))
        case .screenshot(let path):
            let surface = snapshot()
            do {
                try PNG.write(surface, to: path)
            } catch {
                throw ControlError.failed("cannot write \(path): \(error)")
            }
            return .object(["path": .string(path), "width": .integer(surface.width), "height": .integer(surface.height),
                            "screen": .string(coordinator.current.screenName)])
        case .screenshotPNG:
            let surface = snapshot()
            let png: [UInt8]
            do {
                png = try PNG.encode(surface)
            } catch {
                throw ControlError.failed("cannot encode the screenshot: \(error)")
            }
            return .object(["png": .string(Data(png).base64EncodedString()), "width": .integer(surface.width),
                            "height": .integer(surface.height), "screen": .string(coordinator.current.screenName)])
        case .touch(let x, let y):
            guard display.bounds.contains(Point(x: x, y: y)) else {
                throw ControlError.failed("(\(x), \(y)) is outside the \(display.size.width)x\(display.size.height) screen")
            }
            try injectTap(at: Point(x: x, y: y))
        case .swipe(let x1, let y1, let x2, let y2):
            let start = Point(x: x1, y: y1), end = Point(x: x2, y: y2)
            guard display.bounds.contains(start), display.bounds.contains(end) else {
                throw ControlError.failed("the swipe leaves the \(display.size.width)x\(display.size.height) screen")
            }
            guard let injector = runtime.syntheticTouch else { throw ControlError.failed("no synthetic touchscreen") }
            try injector.swipe(from: start, to: end)
        case .tap(let identifier):
            let tree = layoutCurrentScreen()
            guard let node = tree.node(withIdentifier: identifier) else {
                throw ControlError.failed("no element '\(identifier)' on screen '\(coordinator.current.screenName)'; `teller ctl ui` lists them")
            }
            guard node.isEnabled else { throw ControlError.failed("'\(identifier)' is disabled on screen '\(coordinator.current.screenName)'") }
            // A touch lands where the element can be seen, or not at all: a
            // point clamped to the screen's edge would press something else.
            guard let visible = tree.visibleFrame(ofIdentifier: identifier, within: display.bounds), !visible.isEmpty else {
                throw ControlError.failed("'\(identifier)' is not visible on screen '\(coordinator.current.screenName)' (scrolled out of view or off the screen)")
            }
            try injectTap(at: visible.center)
        case .type(let text):
            guard let keyboard = runtime.syntheticKeyboard else { throw ControlError.failed("no synthetic keyboard") }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                try keyboard.type(String(line), pressEnter: index < lines.count - 1)
            }
        case .play(let path):
            try await play(path)
        case .playRecording(let text):
            try await play(recordedAs: text)
        case .sync:
            guard let engine = live.engine else { throw ControlError.failed("no host_url configured; nothing to sync") }
            await engine.syncNow()
        case .prune:
            // The pruner's own pass (batches, each followed by its incremental vacuum), now rather than at its next hour.
            let pass = await pruner.runPass()
            let removed = pass.removed
            return .object([
                "batches": .integer(pass.batches),
                "removed": .object(["outbox_rows": .integer(removed.outboxRows), "tills": .integer(removed.tills), "till_events": .integer(removed.tillEvents),
                                    "print_jobs": .integer(removed.printJobs), "journal_entries": .integer(removed.journalEntries)]),
                "held_back": pass.heldBack.map { .string($0) } ?? .null,
            ])
        case .settle:
            break
        }
        await coordinator.settle()
        loop.setNeedsDisplay()
        return .object(["screen": .string(coordinator.current.screenName)])
    }

    private func injectTap(at point: Point) throws {
        guard let injector = runtime.syntheticTouch else { throw ControlError.failed("no synthetic touchscreen") }
        try injector.tap(point)
    }

    func statusReport() async -> JSONValue {
        let summary = try? await live.store.summary()
        var status = SyncStatus(isOnline: false, lastSyncAt: nil)
        if let engine = live.engine { status = await engine.status() }
        return .object([
            StatusJSON.onlineKey: .bool(status.isOnline),
            "sync_problem": StatusJSON.problem(status.problem),
            "queued_count": .integer(summary?.pendingCount ?? 0),
            "queued_amount": StatusJSON.pending(summary),
            "oldest_queued_age_seconds": StatusJSON.oldestAge(summary, now: Date()),
            "last_sync": status.lastSyncAt.map { .string(StatusJSON.timestamp($0)) } ?? .null,
            "rejected_count": .integer(summary?.unacknowledgedRejections ?? 0),
            "operator": coordinator.signedInOperator.map { .object(["id": .string($0.id.rawValue), "name": .string($0.displayName)]) } ?? .null,
            "screen": .string(coordinator.current.screenName),
            "display": .string(display.name),
            "terminal_id": configuration.terminalID.map { .string($0) } ?? .null,
            "till": await tillJSON(),
            "printer": await printerJSON(),
            "database_check": databaseCheckJSON(),
        ])
    }

    /// The last whole-file check of teller.db: `{"at": "…", "seconds": 0.8, "damage": null}`, or null before the first.
    private func databaseCheckJSON() -> JSONValue {
        guard let last = databaseCheck.last else { return .null }
        return .object(["at": .string(StatusJSON.timestamp(last.at)), "seconds": .number(last.seconds),
                        "damage": last.damage.map { .string($0) } ?? .null])
    }

    /// The signed-in operator's open till: `{"id": 3, "float": {…}, "position": {…}, "cash_payments": 2}`, or null.
    private func tillJSON() async -> JSONValue {
        guard let op = coordinator.signedInOperator, let till = try? await live.store.openTill(of: op.id) else { return .null }
        func money(_ value: Money) -> JSONValue { .object(["minor_units": .integer(Int(value.minorUnits)), "amount": .string(value.decimalString)]) }
        return .object(["id": .integer(Int(till.id)), "currency": .string(till.currency.code), "float": money(till.opening.total),
                        "position": money(till.position), "cash_payments": .integer(till.cashPayments)])
    }

    /// The receipt printer's condition and the slips waiting: `{"address": "tcp:…", "condition": "ready", "waiting": 0}`, or null without one.
    private func printerJSON() async -> JSONValue {
        guard let spooler = printSpooler else { return .null }
        let report = await spooler.printerReport()
        return .object(["address": .string(report.address), "condition": .string(report.condition.rawValue),
                        "waiting": .integer(report.waitingJobs), "last_error": report.lastError.map { .string($0) } ?? .null])
    }
}

extension TerminalApp {
    static let maximumPlayBytes = ControlCommand.maximumPlayBytes

    /// Reads and parses the recording off the main loop, plays it through a
    /// device of its own in slices (the terminal keeps drawing and answering
    /// meanwhile) and removes that device when the play ends, however it ends.
    func play(_ path: String) async throws {
        let size = FileStatus(path: path)?.size
        if let size, size > Self.maximumPlayBytes {
            throw ControlError.failed("\(path) is \(size) bytes; ctl play takes recordings of at most \(Self.maximumPlayBytes >> 20) MiB")
        }
        try await play { () throws(EvemuError) in try EvemuRecording(contentsOf: path) }
    }

    /// ``play(_:)`` for a recording the caller sent as text (`teller ctl play` reads the file on its side).
    func play(recordedAs text: String) async throws {
        guard text.utf8.count <= Self.maximumPlayBytes else {
            throw ControlError.failed("the recording is \(text.utf8.count) bytes; ctl play takes recordings of at most \(Self.maximumPlayBytes >> 20) MiB")
        }
        try await play { () throws(EvemuError) in try EvemuRecording(parsing: text) }
    }

    private func play(_ read: @escaping @Sendable () throws(EvemuError) -> EvemuRecording) async throws {
        let parsed = await Task.detached(priority: .utility) { () -> Result<EvemuRecording, ControlError> in
            do { return .success(try read()) } catch { return .failure(.failed("\(error)")) }
        }.value
        let recording: EvemuRecording
        switch parsed {
        case .success(let value): recording = value
        case .failure(let error): throw error
        }
        guard let sink = loop.attachInProcessDevice(capabilities: recording.capabilities, to: monitor) else {
            throw ControlError.failed("the input monitor is not running")
        }
        defer { loop.detachInProcessDevice(sink, from: monitor) }
        let slice = 512
        var start = recording.events.startIndex
        while start < recording.events.endIndex {
            let end = min(start + slice, recording.events.endIndex)
            try sink.emit(recording.events[start..<end])
            start = end
            await Task.yield()
        }
    }
}
