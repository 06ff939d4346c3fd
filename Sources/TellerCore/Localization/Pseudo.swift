/// Pseudo-localization: every string accented, about 40 % longer and
/// bracketed, "[Ŕéṽîéŵ ðéþöšîţ ·····]". Layout problems a longer language
/// would cause show up in English-speaking QA, and text on screen that is
/// not bracketed did not come through the catalog.
enum Pseudo {
    static let open = "["
    static let close = "]"

    static func text(_ source: String) -> String {
        var result = open
        var letters = 0
        var placeholder = false
        for character in source {
            // {name} placeholders stay as they are, to be filled after.
            if character == "{" { placeholder = true } else if character == "}" { placeholder = false }
            if !placeholder, let accented = accents[character] {
                result.append(accented)
            } else {
                result.append(character)
            }
            if character.isLetter && !placeholder { letters += 1 }
        }
        let padding = max(1, (letters * 2 + 4) / 5)
        return result + " " + String(repeating: "·", count: padding) + close
    }

    static let accents: [Character: Character] = [
        "a": "å", "b": "ƀ", "c": "ç", "d": "ð", "e": "é", "f": "ƒ", "g": "ĝ", "h": "ĥ", "i": "î", "j": "ĵ", "k": "ķ",
        "l": "ļ", "m": "ɱ", "n": "ñ", "o": "ö", "p": "þ", "q": "ǫ", "r": "ŕ", "s": "š", "t": "ţ", "u": "û", "v": "ṽ",
        "w": "ŵ", "x": "ẋ", "y": "ý", "z": "ž",
        "A": "Å", "B": "Ɓ", "C": "Ç", "D": "Ð", "E": "É", "F": "Ƒ", "G": "Ĝ", "H": "Ĥ", "I": "Î", "J": "Ĵ", "K": "Ķ",
        "L": "Ļ", "M": "Ṁ", "N": "Ñ", "O": "Ö", "P": "Þ", "Q": "Ǫ", "R": "Ŕ", "S": "Š", "T": "Ţ", "U": "Û", "V": "Ṽ",
        "W": "Ŵ", "X": "Ẋ", "Y": "Ý", "Z": "Ž",
    ]
}

extension Localization {
    /// In pseudo, what of `text` lies outside every bracket and data isolate,
    /// when it holds a letter: words that skipped the catalog. Nil when there
    /// are none. Pseudo's reader, beside its writer, for the checks that every
    /// word on a screen, a slip or in an error's text came through the catalog.
    public static func wordsOutsideTheCatalog(_ text: String) -> String? {
        var leftover = ""
        var isolation = 0
        var bracket = 0
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{2066}", "\u{2067}", "\u{2068}": isolation += 1
            case "\u{2069}": isolation = max(0, isolation - 1)
            case "[" where isolation == 0: bracket += 1
            case "]" where isolation == 0: bracket = max(0, bracket - 1)
            default:
                if isolation == 0 && bracket == 0 { leftover.unicodeScalars.append(scalar) }
            }
        }
        // A bracket cut by an ellipsis never closes; what it held is already dropped.
        return leftover.contains(where: \.isLetter) ? leftover : nil
    }
}
