/// libpng could not encode or decode an image; `message` is libpng's own.
public struct PNGError: Error, Equatable, CustomStringConvertible {
    public var operation: String
    public var message: String

    public var description: String { "PNG \(operation) failed: \(message)" }
}
