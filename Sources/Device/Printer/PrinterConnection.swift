/// A receipt printer's connection: the USB printer class
/// (``USBPrinterConnection``), a serial port (``SerialPrinterConnection``)
/// or TCP port 9100 (``NetworkPrinterConnection``); tests and the virtual
/// printer bring their own.
///
/// A connection is used by one thread at a time (not thread-safe) and
/// closes when released.
public protocol PrinterConnection: AnyObject {
    /// What errors name: the device path or "host:port".
    var address: String { get }

    /// Writes all of `bytes`, waiting while the printer takes them.
    /// - Throws: ``PrinterError``, `.timedOut` when the printer took no byte
    ///   for ``PrinterTimeouts/writeStall``.
    func write(_ bytes: [UInt8]) throws(PrinterError)

    /// Sends DLE EOT n and returns the printer's answer byte, unparsed.
    /// - Throws: ``PrinterError``, `.noStatusAnswer` when none came within
    ///   ``PrinterTimeouts/statusAnswer``.
    func requestStatus(_ request: StatusRequest) throws(PrinterError) -> UInt8
}

extension PrinterConnection {
    /// Asks all four real-time statuses (DLE EOT 1 to 4) and reads them into one.
    public func status() throws(PrinterError) -> PrinterStatus {
        var status = PrinterStatus()
        for request in StatusRequest.allCases {
            let answer = try requestStatus(request)
            do {
                try status.read(answer, for: request)
            } catch {
                throw PrinterError(kind: .malformedStatusAnswer(request, [answer]), address: address)
            }
        }
        return status
    }
}

/// How long a connection waits for the printer.
public struct PrinterTimeouts: Hashable, Sendable {
    /// TCP: the longest connecting may take.
    public var connect: Duration
    /// The longest the printer may take no byte of a job. Not a deadline
    /// for the whole job: a long receipt over 9600 baud takes a minute,
    /// but a printer that stops taking data (no paper, cover open) is
    /// given up on after this.
    public var writeStall: Duration
    /// The longest one DLE EOT request may wait for its answer.
    public var statusAnswer: Duration

    public init(connect: Duration = .seconds(3), writeStall: Duration = .seconds(10), statusAnswer: Duration = .seconds(1)) {
        self.connect = connect
        self.writeStall = writeStall
        self.statusAnswer = statusAnswer
    }
}
