import Foundation
import Testing
@testable import ProcessTestSupport

/// The receipt printer's keys as check-config reads them: each good value
/// is taken, each bad one is named with its file, line and key and what is
/// wrong with it.
@Suite struct PrinterConfigurationTests {
    static let teller = TestProducts.executable("teller")

    func checkConfig(_ text: String) async throws -> (status: Int32, output: String, file: String) {
        let directory = TemporaryDirectory("teller-printer-config")
        let file = directory.file("teller.conf")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let result = try await ChildProcess.run(Self.teller, ["check-config", file])
        return (result.status, result.stdout + result.stderr, file)
    }

    static let good = [
        "printer = none", "printer = usb:/dev/usb/lp0", "printer = serial:/dev/ttyUSB0@19200", "printer = tcp:192.0.2.7:9100",
        "printer = tcp:[2001:db8::7]:9100", "printer = tcp:printer.branch.example:9100", "printer_paper_mm = 58", "printer_paper_mm = 80",
        "receipt_copies = 1", "receipt_copies = 2", "bank_name = Musterbank eG", "bank_name = \"بنك المثال\"",
    ]

    @Test(arguments: good) func aGoodValueIsTaken(_ line: String) async throws {
        let result = try await checkConfig("# printing\n\(line)\n")
        #expect(result.status == 0, "\(line): \(result.output)")
    }

    /// The line, and what check-config must say after `FILE:2: `.
    static let bad: [(String, String)] = [
        ("printer = lp0", "printer: 'lp0' is not none, usb:/dev/..., serial:/dev/...@BAUD or tcp:HOST:PORT"),
        ("printer = lpt:/dev/lp0", "printer: 'lpt:/dev/lp0' starts with 'lpt', not usb:, serial: or tcp:"),
        ("printer = usb:lp0", "printer: 'usb:lp0' needs the printer's device after usb:, such as usb:/dev/usb/lp0"),
        ("printer = serial:/dev/ttyUSB0", "printer: 'serial:/dev/ttyUSB0' needs the baud rate after the device, such as serial:/dev/ttyUSB0@19200"),
        ("printer = serial:/dev/ttyUSB0@19201", "printer: 'serial:/dev/ttyUSB0@19201' has '19201', not a baud rate a serial printer takes (1200, 2400"),
        ("printer = tcp:192.0.2.7", "printer: 'tcp:192.0.2.7' needs HOST:PORT after tcp:, such as tcp:192.0.2.7:9100"),
        ("printer = tcp:192.0.2.7:99999", "printer: 'tcp:192.0.2.7:99999' has '99999', not a TCP port (1-65535)"),
        ("printer = tcp:2001:db8::7:9100", "printer: 'tcp:2001:db8::7:9100' has an IPv6 address without brackets; write tcp:[2001:db8::7]:9100"),
        ("printer = tcp:bad host:9100", "printer: 'tcp:bad host:9100' has 'bad host', not a host name or address"),
        ("printer_paper_mm = 57", "printer_paper_mm: '57' is not 58 or 80 (the roll's width in mm)"),
        ("printer_paper_mm = 80mm", "printer_paper_mm: '80mm' is not 58 or 80 (the roll's width in mm)"),
        ("receipt_copies = 3", "receipt_copies: '3' is not 1 or 2"),
        ("receipt_copies = 0", "receipt_copies: '0' is not 1 or 2"),
        ("bank_name = \(String(repeating: "B", count: 65))", "bank_name: is 65 characters long; at most 64"),
    ]

    @Test(arguments: bad.indices) func aBadValueIsNamedWithItsLineAndKey(_ index: Int) async throws {
        let (line, message) = Self.bad[index]
        let result = try await checkConfig("# printing\n\(line)\n")
        #expect(result.status == 1, "\(line): \(result.output)")
        #expect(result.output.contains("\(result.file):2: \(message)"), "\(line): \(result.output)")
    }
}
