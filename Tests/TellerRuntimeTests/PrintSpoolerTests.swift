import Device
import Foundation
import Graphics
import PrinterTestSupport
import ProcessHarness
import TellerCore
import TellerData
import TellerFeatures
import TellerUI
import Testing
@testable import TellerRuntime
import ProcessTestSupport

/// The print spooler through real parts: a teller.db on disk, the receipt
/// laid out by TellerUI, ESC/POS over TCP to the virtual printer on the
/// loopback, and the bytes read back by the ESC/POS decoder.
@Suite(.tags(.realProcess, .virtualPrinter, .wallClock)) struct PrintSpoolerTests {
    /// DLE EOT 1 to 4 answers of a printer with nothing to report.
    static let ready: [UInt8: UInt8] = [1: 0x12, 2: 0x12, 3: 0x12, 4: 0x12]
    /// Offline (1: bit 3), stopped at the paper's end (2: bit 5), the end sensor empty (4: bits 5, 6).
    static let paperOut: [UInt8: UInt8] = [1: 0x1A, 2: 0x32, 3: 0x12, 4: 0x72]
    static let limits = try! Limits(currency: .eur, perTransaction: Money(minorUnits: 10_000_000, currency: .eur),
                                    dailyPerTerminal: Money(minorUnits: 50_000_000, currency: .eur),
                                    perOfflineTransaction: Money(minorUnits: 2_000_000, currency: .eur),
                                    offlineQueuedTotal: Money(minorUnits: 10_000_000, currency: .eur), maxOfflineAge: 72 * 3600)
    static let deposit = try! TransactionRequest(kind: .deposit, account: try! IBAN("DE89370400440532013000"),
                                                 amount: Money(minorUnits: 1_248_025, currency: .eur), operatorID: OperatorID("1001")!)

    let directory = TemporaryDirectory("teller-print-spooler")

    func makeStore(copies: Int = 1) throws -> TellerStore {
        let store = try TellerStore(dataDirectory: directory.path, limits: Self.limits, zone: .utc)
        store.configurePrinting(receiptCopies: copies)
        return store
    }

    func makeSpooler(_ store: TellerStore, port: UInt16, till: (any TillPort)? = nil,
                     timing: PrintSpooler.Timing = PrintSpooler.Timing()) -> PrintSpooler {
        let documents = PrintJobDocuments(
            queue: store, header: PaymentReceipt.Header(bankName: "Musterbank", terminal: TerminalIdentity(terminalID: "T-0001", branch: "Mitte")),
            time: TimeFormatting(zone: .utc), format: { .standard }, catalog: { _ in nil }, staff: { _ in nil }, till: till)
        let line = PrinterLine(address: "tcp:127.0.0.1:\(port)", paper: .millimetres80, fonts: { try FontLibrary() }, open: {
            Result { () throws(PrinterError) -> any PrinterConnection in
                try NetworkPrinterConnection(host: "127.0.0.1", port: port, timeouts: PrinterTimeouts(connect: .seconds(2), writeStall: .seconds(2)))
            }
        })
        return PrintSpooler(queue: store, documents: documents, line: line, timing: timing)
    }

    /// The slips in what the printer received.
    func slips(_ printer: FakePrinter) throws -> [EscPosDecoder.Slip] {
        try EscPosDecoder(paperDots: PaperWidth.millimetres80.dots).decode(printer.received).slips
    }

    /// The slips once `count` of them have come whole: the socket takes a
    /// job before the printer has read all of it.
    func slips(_ printer: FakePrinter, count: Int) async throws -> [EscPosDecoder.Slip] {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let slips = try? slips(printer), slips.count >= count, slips.last?.cut != nil { return slips }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try slips(printer)
    }

    /// Whether a row near the top and one near the bottom of `slip` are
    /// almost all black: the white-on-black COPY band ``PrintedDocument/markedAsCopy()`` prints.
    func isMarkedAsCopy(_ slip: EscPosDecoder.Slip) -> Bool {
        func solid(_ y: Int) -> Bool { (0..<slip.width).filter { slip[$0, y] }.count * 10 >= slip.width * 9 }
        let band = 80
        return (0..<min(band, slip.height)).contains(where: solid) && (max(0, slip.height - band)..<slip.height).contains(where: solid)
    }

    /// Out of paper: the payment is still queued at once, nothing but
    /// status requests reach the printer, and the status says why. With
    /// paper back, the receipt prints, once, and is journalled.
    @Test func aPaymentIsQueuedWithThePrinterOutOfPaperAndItsReceiptPrintsWhenPaperIsBack() async throws {
        let printer = try FakePrinter.network(answers: Self.paperOut)
        defer { printer.stop() }
        let store = try makeStore()
        let spooler = makeSpooler(store, port: printer.port)

        let entry = try await store.enqueue(Self.deposit)
        #expect(entry.state == .queued)
        #expect(await spooler.drainOnce() > .zero)
        let waiting = await spooler.printerReport()
        #expect(waiting.condition == .paperOut && waiting.waitingJobs == 1)
        let output = try EscPosDecoder(paperDots: 576).decode(printer.received)
        #expect(output.slips.isEmpty && output.statusRequests.count == 4, "only DLE EOT 1-4 went out")

        printer.answers = Self.ready
        _ = await spooler.drainOnce()
        let printed = try await slips(printer, count: 1)
        try #require(printed.count == 1)
        #expect(printed[0].cut == .partial && printed[0].height > 400)
        let original = !isMarkedAsCopy(printed[0])
        #expect(original, "the customer's slip is the original")
        let report = await spooler.printerReport()
        #expect(report.condition == .ready && report.waitingJobs == 0 && report.lastError == nil)
        #expect(try await store.printJobs().map(\.state) == [.printed])
        let journal = try await store.journalEntries(from: 1, limit: 10)
        #expect(journal.map(\.kind) == [.paymentEnqueued, .print])

        // Nothing prints twice.
        _ = await spooler.drainOnce()
        try await Task.sleep(for: .milliseconds(200))
        #expect(try slips(printer).count == 1)
    }

    /// A power cut while the slip was on its way leaves the job `printing`:
    /// the store, opened again, queues it as a copy, and it prints marked COPY.
    @Test func aJobCutOffMidPrintPrintsAgainMarkedAsACopy() async throws {
        let printer = try FakePrinter.network(answers: Self.ready)
        defer { printer.stop() }
        do {
            let store = try makeStore()
            _ = try await store.enqueue(Self.deposit)
            let job = try #require(try await store.waitingPrintJobs(limit: 1).first)
            try await store.beginPrinting(job.id)
        }
        let store = try makeStore()
        _ = await makeSpooler(store, port: printer.port).drainOnce()
        let printed = try await slips(printer, count: 1)
        try #require(printed.count == 1)
        let marked = isMarkedAsCopy(printed[0])
        #expect(marked, "the slip printed again is marked COPY")
        let job = try #require(try await store.printJobs().first)
        #expect(job.state == .printed && job.isCopy && job.attempts == 2)
        let last = try #require(try await store.journalEntries(from: 1, limit: 10).last)
        #expect(last.kind == .print && last.payload.contains("\"copy\":true"))
    }

    /// Two copies configured: the customer's slip, then the bank's marked COPY.
    @Test func theSecondCopyIsMarked() async throws {
        let printer = try FakePrinter.network(answers: Self.ready)
        defer { printer.stop() }
        let store = try makeStore(copies: 2)
        _ = try await store.enqueue(Self.deposit)
        _ = await makeSpooler(store, port: printer.port).drainOnce()
        let printed = try await slips(printer, count: 2)
        try #require(printed.count == 2)
        let (first, second) = (isMarkedAsCopy(printed[0]), isMarkedAsCopy(printed[1]))
        #expect(!first, "the customer's slip is the original")
        #expect(second, "the second slip is marked COPY")
    }

    /// A till report whose document cannot be made (here: the spooler has
    /// no till to read it from) keeps an error naming the job and stays
    /// queued; the receipt after it prints.
    @Test func aTillReportThatCannotBeMadeStaysQueuedAndTheReceiptsAfterItPrint() async throws {
        let printer = try FakePrinter.network(answers: Self.ready)
        defer { printer.stop() }
        let store = try makeStore()
        let till = try await store.open(by: OperatorID("1001")!, count: TillCount(currency: .eur, pieces: [5000: 2]))
        let report = try await store.queueTillReport(tillID: till.id, by: OperatorID("1001")!)
        _ = try await store.enqueue(Self.deposit)
        _ = await makeSpooler(store, port: printer.port).drainOnce()
        #expect(try await slips(printer, count: 1).count == 1)
        let waiting = try await store.waitingPrintJobs(limit: 10)
        try #require(waiting.count == 1)
        #expect(waiting[0].id == report.id && waiting[0].state == .queued)
        let error = try #require(waiting[0].lastError)
        #expect(error.contains("print job \(report.id) (till report of till \(till.id))") && error.contains("this terminal keeps no tills"), "\(error)")
    }

    /// A closed till's report prints from the store's till, with its counts.
    @Test func aClosedTillsReportPrints() async throws {
        let printer = try FakePrinter.network(answers: Self.ready)
        defer { printer.stop() }
        let store = try makeStore()
        let operatorID = OperatorID("1001")!
        _ = try await store.open(by: operatorID, count: TillCount(currency: .eur, pieces: [5000: 2]))
        let closed = try await store.close(by: operatorID, count: TillCount(currency: .eur, pieces: [5000: 2]), approvedBy: nil)
        _ = try await store.queueTillReport(tillID: closed.id, by: operatorID)
        _ = await makeSpooler(store, port: printer.port, till: store).drainOnce()
        #expect(try await slips(printer, count: 1).count == 1)
        #expect(try await store.waitingPrintJobCount() == 0)
    }

    /// No printer listening: the payment is queued all the same, the job
    /// waits, and the report says offline with the address.
    @Test func anAbsentPrinterNeitherBlocksNorLosesTheReceipt() async throws {
        let gone = try FakePrinter.network(answers: Self.ready)
        let port = gone.port
        gone.stop()
        let store = try makeStore()
        let spooler = makeSpooler(store, port: port)
        let entry = try await store.enqueue(Self.deposit)
        #expect(entry.state == .queued)
        _ = await spooler.drainOnce()
        let report = await spooler.printerReport()
        #expect(report.condition == .offline && report.waitingJobs == 1)
        #expect(report.lastError?.contains("127.0.0.1:\(port)") == true, "\(report.lastError ?? "")")
    }

    /// Running on its own while the printer has no paper, the spooler asks
    /// after a doubling backoff, not in a loop; woken with paper back, it prints.
    @Test func theRunningSpoolerBacksOffAndPrintsWhenWoken() async throws {
        let printer = try FakePrinter.network(answers: Self.paperOut)
        defer { printer.stop() }
        let store = try makeStore()
        let spooler = makeSpooler(store, port: printer.port,
                                  timing: PrintSpooler.Timing(retryBase: .milliseconds(100), retryCap: .seconds(10), idlePoll: .seconds(30)))
        _ = try await store.enqueue(Self.deposit)
        await spooler.start()
        func requests() throws -> Int { try EscPosDecoder(paperDots: 576).decode(printer.received).statusRequests.count }
        // Two passes (four requests each, at 0 and 0.1 s), however slow the machine is today:
        // the arm64 suite under qemu-user took 70 s to get here (a deadline of 60 s failed once
        // there with 0 requests, and passed at 73 s the run before). A wait, not a timing.
        let deadline = ContinuousClock.now + .seconds(240)
        var seen = try requests()
        while seen < 8, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            seen = try requests()
        }
        try #require(seen >= 8, "\(seen) status requests in 240 s: the spooler does not ask again")
        // The next pass is 0.2 s after the second and the one after 0.4 s later: in 0.15 s at most one
        // more pass, never fewer on a slow machine. A busy loop would send thousands.
        try await Task.sleep(for: .milliseconds(150))
        let more = try requests() - seen
        #expect(more <= 8, "\(more) status requests in 0.15 s after the second pass: the spooler does not back off")

        printer.answers = Self.ready
        await spooler.wake()
        let printed = try await slips(printer, count: 1)
        await spooler.stop()
        #expect(printed.count == 1)
    }

    /// The catalog of `language` compiled from po/ by msgfmt, as tools/catalogs compiles it.
    func catalog(_ language: Language) async throws -> Catalog {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let output = directory.file("\(language.code).mo")
        let compiled = try await ChildProcess.run("/usr/bin/msgfmt", ["--check", "-o", output, "\(repository)/po/\(language.code).po"])
        try #require(compiled.status == 0, "\(compiled.stderr)")
        return try Catalog(path: output)
    }

    /// Each receipt prints in the language it was queued in, whatever the
    /// terminal speaks when the printer takes it: what comes out of the
    /// printer is, dot for dot, the receipt written in that language. With
    /// TELLER_PRINT_PNG_DIR set, the slips are also written there as PNG
    /// to be looked at.
    @Test func eachReceiptPrintsInTheLanguageItWasQueuedIn() async throws {
        let printer = try FakePrinter.network(answers: Self.ready)
        defer { printer.stop() }
        let store = try makeStore()
        var catalogs: [String: Catalog] = [:]
        var formats: [RegionalFormat] = []
        for language in [Language.english, .german, .arabic] {
            if language != .english { catalogs[language.code] = try await catalog(language) }
            formats.append(language == .arabic ? RegionalFormat(language: .arabic, currencyDisplay: .symbol, digits: .native)
                                               : RegionalFormat(language: language, currencyDisplay: .symbol))
        }
        var entries: [OutboxEntry] = []
        for format in formats {
            let entry = try await Localization.with(format, catalog: catalogs[format.language.code]) { try await store.enqueue(Self.deposit) }
            entries.append(entry)
        }
        let known = catalogs
        let header = PaymentReceipt.Header(bankName: "Musterbank", terminal: TerminalIdentity(terminalID: "T-0001", branch: "Mitte"))
        let time = TimeFormatting(zone: .utc)
        let documents = PrintJobDocuments(queue: store, header: header, time: time,
                                          format: { RegionalFormat(language: .english, currencyDisplay: .symbol, digits: .native) },
                                          catalog: { known[$0.code] }, staff: { _ in nil })
        let line = PrinterLine(address: "tcp:127.0.0.1:\(printer.port)", paper: .millimetres80, fonts: { try FontLibrary() }, open: {
            Result { () throws(PrinterError) -> any PrinterConnection in try NetworkPrinterConnection(host: "127.0.0.1", port: printer.port) }
        })
        // The terminal speaks English now; the jobs were queued in English, German and Arabic.
        _ = await PrintSpooler(queue: store, documents: documents, line: line).drainOnce()
        let printed = try await slips(printer, count: 3)
        try #require(printed.count == 3)

        let fonts = try FontLibrary()
        let outputDirectory = ProcessInfo.processInfo.environment["TELLER_PRINT_PNG_DIR"]
        for (index, format) in formats.enumerated() {
            let expected = Localization.with(format, catalog: catalogs[format.language.code]) {
                PaymentReceipt.document(for: entries[index], header: header, staff: [], time: time)
            }
            let raster = MonochromeRaster(PrintedDocumentRenderer(fonts: fonts).render(expected, width: PaperWidth.millimetres80.dots))
            let slip = printed[index]
            try #require(slip.width == raster.width && slip.height == raster.height, "\(format.language)")
            var differing = 0
            for y in 0..<raster.height { for x in 0..<raster.width where slip[x, y] != raster[x, y] { differing += 1 } }
            #expect(differing == 0, "\(format.language): \(differing) dots differ from the receipt written in it")
            if let outputDirectory { try slip.writePNG(to: "\(outputDirectory)/spooled-receipt-\(format.language.code).png") }
        }
    }
}
