@testable import Device

/// Recordings under Tests/DeviceTests/Fixtures, in evemu-record's format with the kernel's codes.
enum Fixture {
    static let directory: String = {
        let file = "\(#filePath)"
        return String(file[..<file.lastIndex(of: "/")!]) + "/Fixtures"
    }()

    static func recording(_ name: String) throws -> EvemuRecording {
        try EvemuRecording(contentsOf: directory + "/" + name)
    }
}

extension TouchEvent {
    /// Compact form for comparisons: "began#100@320,200".
    var summary: String { "\(phase)#\(contact)@\(position.x),\(position.y)" }
}
