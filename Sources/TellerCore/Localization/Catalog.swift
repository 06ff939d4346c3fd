import FoundationEssentials

/// A compiled gettext catalog (`teller.mo`, made by `msgfmt` from
/// `po/<language>.po`), read by Teller itself: glibc's gettext would need
/// the language's locale generated on the device, and ICU is not wanted.
public struct Catalog: Sendable {
    /// The file the catalog was read from, for messages.
    public let path: String
    let translations: [String: [String]]
    /// The language's plural rule, from the catalog's Plural-Forms header.
    public let plural: PluralRule

    /// The translation of `msgid`, the form for `count` when `plural` is
    /// given; nil when the catalog has none (an untranslated string).
    public func translation(_ msgid: String, plural pluralID: String?, count: Int?) -> String? {
        guard let forms = translations[msgid], !forms.isEmpty else { return nil }
        guard pluralID != nil, let count else { return forms[0].isEmpty ? nil : forms[0] }
        let index = plural.index(for: count)
        guard index < forms.count, !forms[index].isEmpty else { return nil }
        return forms[index]
    }
}

/// Why a catalog was refused. Each names the file and what is wrong with it.
public enum CatalogError: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case malformed(path: String, reason: String)
    case pluralForms(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read the catalog \(path): \(reason)"
        case .malformed(let path, let reason): "\(path) is not a usable gettext catalog: \(reason)"
        case .pluralForms(let reason): "bad Plural-Forms header: \(reason)"
        }
    }
}

extension Catalog {
    /// The largest catalog accepted; Teller's are tens of kilobytes.
    static let maximumSize = 4 << 20

    /// The catalog for `language` under `directory`, gettext's layout:
    /// `DIRECTORY/LANG/LC_MESSAGES/teller.mo`.
    public static func path(for language: Language, in directory: String) -> String {
        "\(directory)/\(language.code)/LC_MESSAGES/teller.mo"
    }

    /// The catalog `language` is spoken from, read from `directory`'s
    /// gettext layout; nil for the languages that need none (English is
    /// the msgids themselves, pseudo is made from them).
    public static func load(for language: Language, in directory: String) throws(CatalogError) -> Catalog? {
        guard language != .english, language != .pseudo else { return nil }
        return try Catalog(path: path(for: language, in: directory))
    }

    /// Reads the catalog at `path`.
    public init(path: String) throws(CatalogError) {
        let bytes: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes[.size] as? Int, size > Catalog.maximumSize {
                throw CatalogError.malformed(path: path, reason: "\(size) bytes, more than \(Catalog.maximumSize)")
            }
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as CatalogError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        try self.init(bytes: bytes, path: path)
    }

    /// Parses the `.mo` format: a magic number giving the byte order, then
    /// two tables of (length, offset) pairs for the original strings and
    /// their translations. A plural entry's msgid is "singular\0plural" and
    /// its translation holds every form separated by NUL; a context is
    /// "context\u{4}msgid". The header (the translation of "") carries Plural-Forms.
    public init(bytes: Data, path: String) throws(CatalogError) {
        let data = [UInt8](bytes)
        func fail(_ reason: String) -> CatalogError { .malformed(path: path, reason: reason) }
        guard data.count >= 28 else { throw fail("\(data.count) bytes, shorter than the 28-byte header") }
        let magic = UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16 | UInt32(data[3]) << 24
        let littleEndian: Bool
        switch magic {
        case 0x9504_12DE: littleEndian = true
        case 0xDE12_0495: littleEndian = false
        default: throw fail("magic number \(magic.zeroPadded(8, radix: 16)) is not 950412de")
        }
        func word(_ offset: Int) throws(CatalogError) -> Int {
            guard offset >= 0, offset <= data.count - 4 else { throw fail("a table points past the end of the file at \(offset)") }
            let bytes = data[offset..<offset + 4]
            // Folded, not one shifted-or expression of four bytes: Swift 6.0 (the arm64 build) gives up type-checking that.
            let ordered = littleEndian ? Array(bytes.reversed()) : Array(bytes)
            return ordered.reduce(0) { $0 << 8 | Int($1) }
        }
        let revision = try word(4)
        guard revision >> 16 <= 1 else { throw fail("format revision \(revision >> 16) is newer than 1") }
        let count = try word(8)
        let originals = try word(12)
        let translated = try word(16)
        guard count <= data.count / 16 else { throw fail("\(count) strings cannot fit in \(data.count) bytes") }
        func string(table: Int, index: Int) throws(CatalogError) -> [UInt8] {
            let length = try word(table + index * 8)
            let offset = try word(table + index * 8 + 4)
            guard offset <= data.count, length <= data.count - offset else {
                throw fail("string \(index) (\(length) bytes at \(offset)) runs past the end of the file")
            }
            return Array(data[offset..<offset + length])
        }
        func text(_ bytes: some Collection<UInt8>, _ what: String) throws(CatalogError) -> String {
            guard let text = String(validating: bytes, as: UTF8.self) else { throw fail("\(what) is not UTF-8") }
            return text
        }
        var translations: [String: [String]] = [:]
        var rule = PluralRule.germanic
        for index in 0..<count {
            let original = try string(table: originals, index: index)
            let translation = try string(table: translated, index: index)
            // The msgid of a plural entry is "singular\0plural"; it is looked up by its singular.
            let key = try text(original.split(separator: 0, omittingEmptySubsequences: false).first ?? [], "msgid \(index)")
            let forms = try translation.split(separator: 0, omittingEmptySubsequences: false).map { (form) throws(CatalogError) in
                try text(form, "the translation of '\(key)'")
            }
            if key.isEmpty {
                if let line = forms.first?.split(separator: "\n").first(where: { $0.hasPrefix("Plural-Forms:") }) {
                    rule = try PluralRule(header: String(line.dropFirst("Plural-Forms:".count)))
                }
                continue
            }
            translations[key] = forms
        }
        self.path = path
        self.translations = translations
        self.plural = rule
    }

    /// How many strings the catalog translates.
    public var count: Int { translations.count }

    /// The source strings the catalog translates.
    public var messageIDs: Dictionary<String, [String]>.Keys { translations.keys }
}
