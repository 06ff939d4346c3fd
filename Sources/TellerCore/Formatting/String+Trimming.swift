extension StringProtocol where UTF8View: BidirectionalCollection {
    /// The text without the bytes at either end for which `isTrimmed`
    /// holds. Byte by byte, for ASCII: Foundation's `trimmingCharacters`
    /// took about 40 us per host answer, between it and the next request
    /// (and is full Foundation's).
    public func trimmingBytes(where isTrimmed: (UInt8) -> Bool) -> String {
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isTrimmed(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isTrimmed(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The text without spaces, tabs, CRs and LFs at either end: HTTP's
    /// optional whitespace around a header's name or value and its line's
    /// CR LF, the newline after a secret in a file, a catalog's header field.
    public func trimmingASCIIWhitespace() -> String {
        trimmingBytes { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
    }

    /// The text without whitespace (Unicode's, a no-break space too) at
    /// either end: what a person typed, a teller.conf key or value, a
    /// control or scenario line.
    public func trimmingWhitespace() -> String {
        var view = self[...]
        while let first = view.first, first.isWhitespace { view = view.dropFirst() }
        while let last = view.last, last.isWhitespace { view = view.dropLast() }
        return String(view)
    }
}
