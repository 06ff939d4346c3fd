import Device
import Dispatch
import Graphics
import TellerFeatures
import TellerUI

/// The printer's end of the print spooler: lays a document out at the
/// paper's width, makes it dots and ESC/POS, and writes it through the
/// configured connection, which it keeps open between jobs and opens again
/// after a failure.
///
/// Everything here blocks (a write waits while the printer takes bytes, a
/// status request for its answer), so it runs on a serial dispatch queue of
/// its own: neither the main loop nor a thread of Swift's cooperative pool
/// ever waits for the printer. It lays documents out with fonts of its own
/// for the same reason (a ``FontLibrary`` is not thread-safe, and the
/// screens' belongs to the main loop).
public final class PrinterLine: @unchecked Sendable {
    /// The printer as configured ("tcp:192.0.2.7:9100"), for reports and logs.
    public let address: String
    public let paper: PaperWidth
    private let open: @Sendable () -> Result<any PrinterConnection, PrinterError>
    private let makeFonts: @Sendable () throws -> FontLibrary
    private let queue = DispatchQueue(label: "teller.printer")
    // Touched only on `queue`.
    private var connection: (any PrinterConnection)?
    private var renderer: PrintedDocumentRenderer?

    /// - Parameters:
    ///   - address: The printer as teller.conf names it.
    ///   - paper: The roll, whose head width the slips are laid out at.
    ///   - fonts: Makes the line's own font library, once, on its queue.
    ///   - open: Opens the connection (``PrinterAddress/open(timeouts:)`` in the terminal).
    public init(address: String, paper: PaperWidth, fonts: @escaping @Sendable () throws -> FontLibrary,
                open: @escaping @Sendable () -> Result<any PrinterConnection, PrinterError>) {
        self.address = address
        self.paper = paper
        makeFonts = fonts
        self.open = open
    }

    /// DLE EOT 1 to 4, read into one status.
    public func status() async -> Result<PrinterStatus, PrinterError> {
        await onQueue { () -> Result<PrinterStatus, PrinterError> in
            self.withConnection { (connection: any PrinterConnection) throws(PrinterError) -> PrinterStatus in try connection.status() }
        }
    }

    /// Prints `document` as one slip: initialise, the raster, the cut.
    public func print(_ document: PrintedDocument) async -> Result<Void, PrintLineFailure> {
        await onQueue { () -> Result<Void, PrintLineFailure> in
            let bytes: [UInt8]
            do {
                bytes = try self.slip(document)
            } catch {
                return .failure(.layout("cannot lay the slip out: \(error)"))
            }
            var started = false
            let written = self.withConnection { (connection: any PrinterConnection) throws(PrinterError) -> Void in
                started = true
                try connection.write(bytes)
            }
            return written.mapError { .printer($0, mayHavePrinted: started) }
        }
    }

    /// The slip's ESC/POS bytes. On the queue.
    private func slip(_ document: PrintedDocument) throws -> [UInt8] {
        let renderer = try renderer ?? PrintedDocumentRenderer(fonts: makeFonts())
        self.renderer = renderer
        let surface = renderer.render(document, width: paper.dots)
        return EscPosEncoder.slip(MonochromeRaster(surface), paper: paper)
    }

    /// Runs `body` over the open connection, opening it first; a failure
    /// closes it, so the next attempt starts over (a printer switched off
    /// and on again, a network printer that dropped the connection). On the queue.
    private func withConnection<T>(_ body: (any PrinterConnection) throws(PrinterError) -> T) -> Result<T, PrinterError> {
        let current: any PrinterConnection
        if let connection {
            current = connection
        } else {
            switch open() {
            case .success(let opened): current = opened
            case .failure(let error): return .failure(error)
            }
            connection = current
        }
        do {
            return .success(try body(current))
        } catch {
            connection = nil
            return .failure(error)
        }
    }

    private func onQueue<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            queue.async { continuation.resume(returning: work()) }
        }
    }
}

/// Why a slip did not print.
public enum PrintLineFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The slip could not be laid out (the fonts cannot be read); nothing was sent.
    case layout(String)
    /// The printer failed; when `mayHavePrinted`, bytes of the slip may be on paper.
    case printer(PrinterError, mayHavePrinted: Bool)

    public var description: String {
        switch self {
        case .layout(let why): why
        case .printer(let error, _): error.description
        }
    }
}
