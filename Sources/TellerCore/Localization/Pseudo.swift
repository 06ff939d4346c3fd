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
