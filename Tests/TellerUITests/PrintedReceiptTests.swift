import Device
import FoundationEssentials
import Graphics
import PrinterTestSupport
import TellerCore
import TellerFeatures
import TellerUI
import Testing
import Widgets

/// The customer's receipt as it comes out of the printer: laid out by
/// TellerUI, turned into dots and ESC/POS by Device, and read back by the
/// virtual printer's decoder (Tests/PrinterSupport). Each slip is compared
/// with its picture in docs/receipts, the way ScreenshotTests compares the
/// screens; with TELLER_WRITE_RECEIPTS=1 it first writes the picture:
///
///     TELLER_WRITE_RECEIPTS=1 swift test --filter PrintedReceiptTests
@MainActor
@Suite struct PrintedReceiptTests {
    static var writes: Bool { ProcessInfo.processInfo.environment["TELLER_WRITE_RECEIPTS"] == "1" }

    static var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/receipts")
    }

    static let createdAt = try! Date("2026-11-29T14:05:00Z", strategy: .iso8601)
    static let key = IdempotencyKey(rawValue: "3f2a9c4e-0b1d-4e8f-9a7b-5c6d7e8f9a0b")!
    static let anna = Operator(id: OperatorID("1001")!, displayName: "Anna Berger")
    static let header = PaymentReceipt.Header(bankName: "Musterbank", terminal: TerminalIdentity(terminalID: "T-0001", branch: "Berlin Mitte"))

    /// One printed slip: a payment in a state, in a language, on a paper.
    struct Slip: Sendable {
        var name: String
        var language: Language
        var paper: PaperWidth
        var kind: TransactionKind
        var state: OutboxState
        var isCopy = false
        /// The end-of-day till report instead of a payment's receipt.
        var isTillReport = false
        var caption: String

        var fileName: String { "\(name).png" }
    }

    nonisolated static let slips: [Slip] = [
        Slip(name: "deposit-queued-en-80mm", language: .english, paper: .millimetres80, kind: .deposit, state: .queued,
             caption: "A deposit, queued, in English on 80 mm paper: the receipt printed as the payment is saved"),
        Slip(name: "deposit-queued-de-80mm", language: .german, paper: .millimetres80, kind: .deposit, state: .queued,
             caption: "The same deposit in German on 80 mm paper"),
        Slip(name: "deposit-queued-ar-80mm", language: .arabic, paper: .millimetres80, kind: .deposit, state: .queued,
             caption: "The same deposit in Arabic (Arabic-Indic digits) on 80 mm paper, right to left"),
        Slip(name: "deposit-confirmed-en-80mm", language: .english, paper: .millimetres80, kind: .deposit,
             state: .confirmed(reference: "H20261206-0000042"),
             caption: "A deposit the bank posted within receipt_wait_s: the customer's slip says Confirmed with the bank's reference"),
        Slip(name: "deposit-voided-en-80mm", language: .english, paper: .millimetres80, kind: .deposit, state: .voided(reason: .wrongAmount),
             caption: "The void slip: the voided deposit's receipt, Voided white on black at its top, with the reason; it never reached the bank"),
        Slip(name: "transfer-confirmed-copy-de-58mm", language: .german, paper: .millimetres58, kind: .transfer,
             state: .confirmed(reference: "HX-20261129-0042"), isCopy: true,
             caption: "A reprint of a confirmed transfer in German on 58 mm paper, marked as a copy"),
        Slip(name: "till-report-en-80mm", language: .english, paper: .millimetres80, kind: .deposit, state: .queued, isTillReport: true,
             caption: "The till report at close in English: float and count by denomination, a voided deposit and a deposit the bank refused (to settle), expected, counted, 10.00 short, approved by a supervisor by name"),
        Slip(name: "till-report-de-80mm", language: .german, paper: .millimetres80, kind: .deposit, state: .queued, isTillReport: true,
             caption: "The same till report in German"),
        Slip(name: "till-report-ar-80mm", language: .arabic, paper: .millimetres80, kind: .deposit, state: .queued, isTillReport: true,
             caption: "The same till report in Arabic, right to left"),
    ]

    /// A till opened with 170.00, moved by 250.00 in (60.00 of it a deposit
    /// the bank refused, to settle) and 120.00 out, with a 25.00 deposit
    /// voided, closed 10.00 short with Jonas Weber's (2001) approval.
    static func tillReport(in language: Language) throws -> PrintedDocument {
        let opening = TillCount(currency: .eur, pieces: [5000: 2, 1000: 5, 200: 10])
        let counted = TillCount(currency: .eur, pieces: [5000: 4, 2000: 1, 1000: 5, 200: 10])
        func deposit(_ minor: Int64, _ key: String, _ state: OutboxState) throws -> OutboxEntry {
            let request = try TransactionRequest(kind: .deposit, account: try IBAN("DE89370400440532013000"),
                                                 amount: Money(minorUnits: minor, currency: .eur), operatorID: anna.id)
            return OutboxEntry(id: 1, key: IdempotencyKey(rawValue: key)!, request: request, createdAt: createdAt, state: state)
        }
        let till = TillSession(id: 3, operatorID: anna.id, openedAt: createdAt.addingTimeInterval(-8 * 3600), opening: opening,
                               cashIn: Money(minorUnits: 25_000, currency: .eur), cashOut: Money(minorUnits: 12_000, currency: .eur), cashPayments: 3,
                               voided: [try deposit(2_500, "7c41d0a2-5b3e-4f61-8a9d-0e1f2a3b4c5d", .voided(reason: .wrongAmount))],
                               toSettle: [try deposit(6_000, "b90e3f17-2c4d-4e5f-9a0b-1c2d3e4f5a6b",
                                                      .rejected(reason: "account_blocked", acknowledged: false))],
                               closing: .init(closedAt: createdAt, counted: counted, expected: Money(minorUnits: 30_000, currency: .eur),
                                              approvedBy: OperatorID("2001")!))
        let (format, catalog) = try regional(language)
        return Localization.with(format, catalog: catalog) {
            TillReport.document(for: till, header: header, staff: [anna, Operator(id: OperatorID("2001")!, displayName: "Jonas Weber")],
                                time: TimeFormatting(zone: .fixed(secondsEastOfUTC: 3600)))
        }
    }

    /// The language's format as a bank there would configure it (as the screenshots do), and its catalog.
    static func regional(_ language: Language) throws -> (RegionalFormat, Catalog?) {
        switch language {
        case .english: (.standard, nil)
        case .arabic: (RegionalFormat(language: .arabic, currencyDisplay: .symbol, digits: .native), try TestCatalogs.catalog(.arabic))
        case .pseudo: (RegionalFormat(language: .pseudo), nil)
        default: (RegionalFormat(language: language, currencyDisplay: .symbol), try TestCatalogs.catalog(language))
        }
    }

    static func document(_ kind: TransactionKind, _ state: OutboxState, copy: Bool = false, in language: Language) throws -> PrintedDocument {
        let request = try TransactionRequest(
            kind: kind, account: try IBAN("DE89370400440532013000"),
            counterparty: kind == .transfer ? try IBAN("DE54500105170426397158") : nil,
            amount: Money(minorUnits: 1_248_025, currency: .eur), operatorID: anna.id)
        let entry = OutboxEntry(id: 7, key: key, request: request, createdAt: createdAt, state: state)
        let (format, catalog) = try regional(language)
        return Localization.with(format, catalog: catalog) {
            let document = PaymentReceipt.document(for: entry, header: header, staff: [anna],
                                                   time: TimeFormatting(zone: .fixed(secondsEastOfUTC: 3600)))
            return copy ? document.markedAsCopy() : document
        }
    }

    static var fonts: FontLibrary {
        do { return try FontLibrary() } catch { fatalError("fonts: \(error)") }
    }

    @Test(arguments: slips.indices)
    func printedReceiptMatchesItsPicture(_ index: Int) throws {
        let slip = Self.slips[index]
        let document = slip.isTillReport ? try Self.tillReport(in: slip.language)
            : try Self.document(slip.kind, slip.state, copy: slip.isCopy, in: slip.language)
        let surface = PrintedDocumentRenderer(fonts: Self.fonts).render(document, width: slip.paper.dots)
        let raster = MonochromeRaster(surface)
        let printed = try EscPosDecoder(paperDots: slip.paper.dots).decode(EscPosEncoder.slip(raster, paper: slip.paper))
        try #require(printed.slips.count == 1)
        let paper = printed.slips[0]
        #expect(paper.cut == .partial)
        // What came out of the printer is the raster, dot for dot.
        try #require(paper.width == raster.width && paper.height == raster.height)
        var differing = 0
        for y in 0..<raster.height { for x in 0..<raster.width where paper[x, y] != raster[x, y] { differing += 1 } }
        #expect(differing == 0)

        let picture = paper.surface()
        let path = Self.directory.appendingPathComponent(slip.fileName).path
        if Self.writes {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try PNG.write(picture, to: path)
        }
        do {
            try ImageDifference().compare(picture, goldenAt: path)
        } catch {
            Issue.record("\(slip.fileName): \(error); look at it, then TELLER_WRITE_RECEIPTS=1 swift test --filter PrintedReceiptTests")
        }
    }

    /// docs/receipts/README.md lists exactly the pictures this suite writes.
    @Test func indexListsEveryReceipt() throws {
        let index = Self.directory.appendingPathComponent("README.md")
        if Self.writes {
            var text = """
                # Printed receipts

                The customer's receipt as the printer prints it, rendered from fixed payments by
                `Tests/TellerUITests/PrintedReceiptTests.swift`: laid out by TellerUI's
                `PrintedDocumentRenderer` at the paper's width (80 mm = 576 dots, 58 mm = 384 dots at
                203 dpi), made 1-bit and ESC/POS by Device, and read back by the virtual printer's
                decoder (`Tests/PrinterSupport/EscPosDecoder.swift`). Regenerate them with

                    TELLER_WRITE_RECEIPTS=1 swift test --filter PrintedReceiptTests

                and look at every picture before committing: the suite compares each printed slip with
                its picture here.

                | picture | what it shows |
                |---|---|

                """
            for slip in Self.slips { text += "| [\(slip.fileName)](\(slip.fileName)) | \(slip.caption) |\n" }
            try text.write(to: index, atomically: true, encoding: .utf8)
        }
        let text = try #require(try? String(contentsOf: index, encoding: .utf8), "docs/receipts/README.md is missing")
        for slip in Self.slips { #expect(text.contains(slip.fileName)) }
    }

    /// The longest words (German, and pseudo's 40 % longer text) on the
    /// narrowest paper: nothing is cut, nothing leaves the paper, and every
    /// word came through the catalog.
    nonisolated static let stressed: [(language: Language, paper: PaperWidth)] = [
        (.german, .millimetres58), (.pseudo, .millimetres58), (.arabic, .millimetres58), (.pseudo, .millimetres80),
    ]

    @Test(arguments: stressed.indices)
    func nothingIsCutOrOffThePaper(_ index: Int) throws {
        let (language, paper) = Self.stressed[index]
        for kind in TransactionKind.allCases {
            let document = try Self.document(kind, .rejected(reason: "insufficient_funds", acknowledged: false), copy: true, in: language)
            let tree = PrintedDocumentRenderer(fonts: Self.fonts).layout(document, width: paper.dots)
            #expect(tree.frame.width == paper.dots)
            var texts = 0
            tree.forEach { node in
                #expect(!node.isTruncated, "\(language.code) \(paper): \(node.label ?? "") is cut")
                for case .text(let text, _, _, let baseline) in node.paints {
                    texts += 1
                    #expect(baseline.x >= 0 && baseline.y > 0 && baseline.y <= tree.frame.height, "\(text) is off the paper")
                }
                if language == .pseudo, node.role == .text, let label = node.label {
                    #expect(LocalizedScreenTests.bypassedCatalog(label) == nil, "\(label) skipped the catalog")
                }
            }
            #expect(texts >= document.lines.count)
        }
    }

    /// Right to left as the screens are: a row's label on the right and its
    /// value on the left in Arabic, the other way round in German.
    @Test func arabicMirrorsTheRows() throws {
        func labelAndValue(_ language: Language) throws -> (label: Rect, value: Rect) {
            let document = try Self.document(.deposit, .queued, in: language)
            let tree = PrintedDocumentRenderer(fonts: Self.fonts).layout(document, width: PaperWidth.millimetres80.dots)
            var frames: [String: Rect] = [:]
            tree.forEach { node in if let label = node.label, node.role == .text { frames[label] = frames[label] ?? node.frame } }
            let (format, catalog) = try Self.regional(language)
            let (terminal, id) = Localization.with(format, catalog: catalog) { (tr("Terminal"), Localization.leftToRight("T-0001")) }
            return (try #require(frames[terminal]), try #require(frames[id]))
        }
        let arabic = try labelAndValue(.arabic)
        #expect(arabic.label.minX > arabic.value.maxX)
        let german = try labelAndValue(.german)
        #expect(german.label.maxX < german.value.minX)
    }
}
