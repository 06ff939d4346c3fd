import TellerConfiguration
import SystemCalls
import Device
import Graphics
import TellerCore
import TellerData
import TellerFeatures
import TellerRuntime

extension TerminalApp {
    /// The print spooler over the store's print queue and the configured
    /// printer; nil when `printer = none`, and then nothing is queued either
    /// (``Configuration/receiptsPerPayment``).
    static func printSpooler(_ configuration: Configuration, store: TellerStore, sync: any SyncStatusPort, time: TimeFormatting,
                             session: any OperatorSessionPort) -> PrintSpooler? {
        guard let address = configuration.printer else { return nil }
        let localeDirectory = configuration.localeDirectory
        let regional = configuration.regionalFormat
        let documents = PrintJobDocuments(
            queue: store,
            header: PaymentReceipt.Header(bankName: configuration.bankName,
                                          terminal: TerminalIdentity(terminalID: configuration.terminalID, branch: configuration.branch)),
            time: time,
            // The bank's currency display and digits as the screens use them now; the job names the language.
            format: { Localization.format.language == regional.language ? Localization.format : regional },
            catalog: { language in
                do throws(CatalogError) { return try Catalog.load(for: language, in: localeDirectory) } catch {
                    Log.warning("printer: \(error); printing in English")
                    return nil
                }
            },
            staff: { await session.knownOperator($0) }, till: store)
        let fonts = FontConfiguration(directory: configuration.fontDirectory)
        let line = PrinterLine(address: address.description, paper: configuration.printerPaper,
                               fonts: { try FontLibrary(configuration: fonts) },
                               open: { Result { () throws(PrinterError) -> any PrinterConnection in try address.open() } })
        Log.info("printer: \(address) on \(configuration.printerPaper) paper, \(configuration.receiptCopies) receipt(s) per payment")
        let wait = PrintSpooler.ReceiptWait(limit: .milliseconds(Int64((configuration.receiptWait * 1000).rounded())),
                                            online: { await sync.status().isOnline })
        return PrintSpooler(queue: store, documents: documents, line: line, receiptWait: wait, log: { Log.info($0) })
    }

    /// Wakes the spooler on every payment and reprint, redraws the status
    /// bar when the printer's state changes, and starts it.
    func startPrinting() async {
        guard let spooler = printSpooler else { return }
        await spooler.onChange { _ in
            Task { @MainActor [weak self] in await self?.coordinator.refreshStatus() }
        }
        await live.store.onEnqueue { _ in Task { await spooler.wake() } }
        await live.store.onPrintJobQueued { Task { await spooler.wake() } }
        await spooler.start()
    }
}
