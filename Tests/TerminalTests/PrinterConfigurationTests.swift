import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// The counter day's keys (the receipt printer, the till, the supervisors)
/// as check-config reads them: each good value is taken, each bad one is
/// named with its file, line and key and what is wrong with it.
@Suite(.tags(.realProcess)) struct PrinterConfigurationTests {
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
        "supervisors = 2001", "supervisors = 2001, 2002 20030", "till_tolerance = 0", "till_tolerance = 5.00",
        "till_denominations = 500 200 100 50 20 10 5 2 1 0.50 0.20 0.10 0.05 0.02 0.01",
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
        ("supervisors = 2001 12", "supervisors: '12' is not a staff number (4 to 8 digits)"),
        ("supervisors = 2001 2001", "supervisors: 2001 is listed twice"),
        ("till_tolerance = -1", "till_tolerance: '-1' is not an amount like 0 or 5.00"),
        ("till_tolerance = 0.001", "till_tolerance: has more decimals than EUR allows (2)"),
        ("till_denominations = 50 20 50", "till_denominations: 50 is listed twice"),
        ("till_denominations = 50 0", "till_denominations: '0' is not a note or coin value like 50 or 0.20"),
        ("till_denominations = 0.005", "till_denominations: has more decimals than EUR allows (2)"),
        ("till_denominations = 50000000 100", "till_denominations: 50000000.00 is larger than any note (at most 999999999 minor units)"),
    ]

    @Test(arguments: bad.indices) func aBadValueIsNamedWithItsLineAndKey(_ index: Int) async throws {
        let (line, message) = Self.bad[index]
        let result = try await checkConfig("# printing\n\(line)\n")
        #expect(result.status == 1, "\(line): \(result.output)")
        #expect(result.output.contains("\(result.file):2: \(message)"), "\(line): \(result.output)")
    }
}
