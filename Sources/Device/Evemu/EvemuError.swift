/// A recording that cannot be read, naming the line and what is wrong with it.
public struct EvemuError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based line number in the file; 0 when the problem is the file as a whole.
    public var line: Int
    public var problem: String
    public var path: String?

    public init(line: Int, problem: String, path: String? = nil) {
        self.line = line
        self.problem = problem
        self.path = path
    }

    public var description: String {
        let file = path ?? "evemu recording"
        return line > 0 ? "\(file):\(line): \(problem)" : "\(file): \(problem)"
    }
}
