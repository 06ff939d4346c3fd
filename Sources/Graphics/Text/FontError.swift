/// Why a font could not be loaded; the message names the file to fix.
public enum FontError: Error, Equatable, CustomStringConvertible {
    /// The font file does not exist or cannot be read.
    case missingFont(path: String)
    /// FreeType refused the file or an operation on it.
    case freeType(operation: String, path: String, code: Int32)

    public var description: String {
        switch self {
        case .missingFont(let path):
            return "font file not found: \(path) (install fonts-dejavu-core or set the font directory)"
        case .freeType(let operation, let path, let code):
            return "FreeType \(operation) failed for \(path) with error \(code)"
        }
    }
}
