// File paths as strings, the way SQLite and the C library take them.
// NSString's path methods belong to full Foundation (and ICU with it); these
// are the two that SQLite, TellerData and DurableFile need (package: they
// are ours, not an API).

extension String {
    /// This directory's path with `name` inside it: "/var/lib/teller" or
    /// "/var/lib/teller/" and "teller.db" make "/var/lib/teller/teller.db",
    /// as NSString's `appendingPathComponent` does.
    package func appendingPathComponent(_ name: String) -> String {
        if name.isEmpty { return self }
        if isEmpty { return name }
        return hasSuffix("/") ? self + name : self + "/" + name
    }

    /// The directory that holds the file at this path: "/var/lib/teller"
    /// for "/var/lib/teller/teller.db", "/" for "/teller.db" and "." for a
    /// bare "teller.db" (where NSString's `deletingLastPathComponent` says
    /// "", which no system call takes). Trailing and doubled slashes do not
    /// count as components.
    package var parentDirectory: String {
        var path = Substring(self)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        var directory = path[..<slash]
        while directory.hasSuffix("/") { directory.removeLast() }
        return directory.isEmpty ? "/" : String(directory)
    }
}
