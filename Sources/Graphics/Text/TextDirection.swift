/// The base direction of a paragraph: which way its runs follow one another
/// and where neutral characters at its ends (spaces, punctuation, an
/// ellipsis) go. Arabic screens use ``rightToLeft``.
public enum TextDirection: Hashable, Sendable {
    case leftToRight, rightToLeft
}
