/// A value bound to, or read from, a SQLite statement.
public enum SQLValue: Hashable, Sendable {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null
}
