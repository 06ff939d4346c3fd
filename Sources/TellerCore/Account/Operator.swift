/// The staff number an operator signs in with.
public struct OperatorID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// - Returns: nil unless the id is 4 to 8 ASCII digits (the host contract's form).
    public init?(_ rawValue: String) {
        guard (4...8).contains(rawValue.count), rawValue.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}

/// A member of staff who is signed in, or was.
public struct Operator: Hashable, Sendable {
    public let id: OperatorID
    public let displayName: String

    public init(id: OperatorID, displayName: String) {
        self.id = id
        self.displayName = displayName
    }
}

/// Which terminal this is, as provisioned by the technician.
public struct TerminalIdentity: Hashable, Sendable {
    /// Nil until the technician provisions the terminal (an offline-only
    /// terminal can run without one).
    public let terminalID: String?
    public let branch: String

    public init(terminalID: String?, branch: String) {
        self.terminalID = terminalID
        self.branch = branch
    }
}
