/// Where a receipt printer is, as teller.conf's `printer` names it:
/// `usb:/dev/usb/lp0`, `serial:/dev/ttyUSB0@19200` or `tcp:HOST:PORT`
/// (`none` is no printer, so no address).
public enum PrinterAddress: Hashable, Sendable, CustomStringConvertible {
    /// The USB printer class (usblp) or a parallel port.
    case usb(path: String)
    /// A serial port at a baud rate ``SerialPrinterConnection/baudRates`` offers.
    case serial(path: String, baud: Int)
    /// A printer's raw TCP port; an IPv6 host without its brackets.
    case network(host: String, port: UInt16)

    /// Reads a `printer` value. `none` is nil.
    /// - Returns: the address, or what is wrong with `text` in words a
    ///   technician reads next to the file's line.
    public static func parse(_ text: String) -> Result<PrinterAddress?, PrinterAddressError> {
        func refuse(_ why: String) -> Result<PrinterAddress?, PrinterAddressError> { .failure(PrinterAddressError(value: text, reason: why)) }
        if text == "none" { return .success(nil) }
        guard let colon = text.firstIndex(of: ":") else {
            return refuse("is not none, usb:/dev/..., serial:/dev/...@BAUD or tcp:HOST:PORT")
        }
        let scheme = text[..<colon], rest = String(text[text.index(after: colon)...])
        switch scheme {
        case "usb":
            guard rest.hasPrefix("/dev/") else { return refuse("needs the printer's device after usb:, such as usb:/dev/usb/lp0") }
            return .success(.usb(path: rest))
        case "serial":
            guard let at = rest.lastIndex(of: "@") else {
                return refuse("needs the baud rate after the device, such as serial:/dev/ttyUSB0@19200")
            }
            let path = String(rest[..<at]), rate = rest[rest.index(after: at)...]
            guard path.hasPrefix("/dev/") else { return refuse("needs the serial port's device after serial:, such as serial:/dev/ttyUSB0@19200") }
            guard let baud = Int(rate), SerialPrinterConnection.baudRates[baud] != nil else {
                let rates = SerialPrinterConnection.baudRates.keys.sorted().map(String.init).joined(separator: ", ")
                return refuse("has '\(rate)', not a baud rate a serial printer takes (\(rates))")
            }
            return .success(.serial(path: path, baud: baud))
        case "tcp":
            return network(rest).mapError { PrinterAddressError(value: text, reason: $0.reason) }.map { $0 }
        default:
            return refuse("starts with '\(scheme)', not usb:, serial: or tcp:")
        }
    }

    /// "HOST:PORT" or "[IPv6]:PORT".
    private static func network(_ text: String) -> Result<PrinterAddress, PrinterAddressError> {
        func refuse(_ why: String) -> Result<PrinterAddress, PrinterAddressError> { .failure(PrinterAddressError(value: text, reason: why)) }
        let host: Substring, port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return refuse("needs [IPv6]:PORT after tcp:, such as tcp:[2001:db8::7]:9100")
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return refuse("needs HOST:PORT after tcp:, such as tcp:192.0.2.7:9100") }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
            guard !host.contains(":") else { return refuse("has an IPv6 address without brackets; write tcp:[2001:db8::7]:9100") }
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:_".contains($0)) }) else {
            return refuse("has '\(host)', not a host name or address")
        }
        guard let number = UInt16(port), number > 0 else { return refuse("has '\(port)', not a TCP port (1-65535)") }
        return .success(.network(host: String(host), port: number))
    }

    /// Opens the connection (each job and status request may reuse it).
    /// - Throws: ``PrinterError`` naming the device or "host:port".
    public func open(timeouts: PrinterTimeouts = PrinterTimeouts()) throws(PrinterError) -> any PrinterConnection {
        switch self {
        case .usb(let path): try USBPrinterConnection(path: path, timeouts: timeouts)
        case .serial(let path, let baud): try SerialPrinterConnection(path: path, baud: baud, timeouts: timeouts)
        case .network(let host, let port): try NetworkPrinterConnection(host: host, port: port, timeouts: timeouts)
        }
    }

    /// As teller.conf spells it.
    public var description: String {
        switch self {
        case .usb(let path): "usb:\(path)"
        case .serial(let path, let baud): "serial:\(path)@\(baud)"
        case .network(let host, let port): host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        }
    }
}

/// A `printer` value that names no printer Teller can open.
public struct PrinterAddressError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The value as written.
    public let value: String
    /// What is wrong with it.
    public let reason: String

    public var description: String { "'\(value)' \(reason)" }
}
