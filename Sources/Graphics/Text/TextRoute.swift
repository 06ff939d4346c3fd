/// How a line of text is drawn and measured: scalar by scalar through the
/// font's scalar cache, or ordered by FriBidi and shaped by HarfBuzz.
///
/// Labels, amounts and keys are nearly all Latin, so the question is
/// answered by one pass over the UTF-8 bytes looking for a lead byte of
/// U+0590 or above; only text that has one is looked at scalar by scalar.
enum TextRoute {
    /// One glyph per scalar, kerned in pairs: Latin, digits, €, Latin-1 accents.
    case scalars
    /// As ``scalars`` once the isolate marks are taken out: Latin data that
    /// `Localization.leftToRight` wrapped in U+2066 … U+2069. Without a
    /// right-to-left letter in the text, such marks change no order.
    case scalarsWithoutMarks
    /// Right-to-left or complex-script text, or bidi controls that can reorder.
    case shaped

    @inline(__always)
    init<S: StringProtocol>(_ text: S) {
        // Continuation bytes are 0x80-0xBF and lead bytes below 0xD6 start scalars below U+0580.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte >= 0xD6 { return false }
            return true
        } ?? !text.utf8.contains { $0 >= 0xD6 }
        self = plain ? .scalars : TextRoute(scalarsOf: text)
    }

    private init<S: StringProtocol>(scalarsOf text: S) {
        var route = TextRoute.scalars
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if TextRoute.needsShaping(value) { self = .shaped; return }
            if TextRoute.isHarmlessMark(value) { route = .scalarsWithoutMarks }
        }
        self = route
    }

    /// `text` without the marks ``isHarmlessMark(_:)`` names.
    static func withoutMarks<S: StringProtocol>(_ text: S) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isHarmlessMark(scalar.value) { scalars.append(scalar) }
        return String(scalars)
    }

    /// Scalars that need FriBidi or HarfBuzz: right-to-left scripts, scripts
    /// whose letters change shape or reorder, presentation forms, and bidi
    /// controls that can reverse Latin text (RLM, embeddings, overrides, RLI).
    static func needsShaping(_ value: UInt32) -> Bool {
        switch value {
        case 0x0590...0x08FF: true   // Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, Arabic Extended
        case 0x0900...0x0FFF: true   // Indic scripts, Thai, Lao, Tibetan
        case 0x1000...0x109F: true   // Myanmar
        case 0x1780...0x18AF: true   // Khmer, Mongolian
        case 0x200F, 0x202A...0x202E, 0x2067: true
        case 0xFB1D...0xFDFF: true   // Hebrew and Arabic presentation forms A
        case 0xFE70...0xFEFF: true   // Arabic presentation forms B
        case 0x10800...0x10FFF: true // right-to-left historic and modern scripts (Adlam's neighbours, Hanifi Rohingya)
        case 0x1E800...0x1EFFF: true // Mende Kikakui, Adlam, Arabic mathematical letters
        default: false
        }
    }

    /// Bidi marks that change nothing in text with no right-to-left letter:
    /// LRM, LRI, FSI and PDI. They are drawn as nothing.
    @inline(__always)
    static func isHarmlessMark(_ value: UInt32) -> Bool {
        value == 0x200E || value == 0x2066 || value == 0x2068 || value == 0x2069
    }

    /// Every bidi control: invisible and zero-width on every route.
    static func isBidiControl(_ value: UInt32) -> Bool {
        value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
