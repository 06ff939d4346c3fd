import Graphics

/// The type ramp, in dp before the text scale.
///
/// Sizes are chosen for arm's length on a 7-inch panel: body text is 18 dp,
/// nothing is smaller than 14 dp.
public enum TextStyle: String, Hashable, Sendable, Codable {
    case caption, body, bodyBold, headline, title, amount, key

    /// The em size in dp at text scale 1.
    public var size: Double {
        switch self {
        case .caption: return 14
        case .body, .bodyBold: return 18
        case .headline: return 20
        case .title: return 26
        case .amount: return 20
        case .key: return 24
        }
    }

    public var weight: FontWeight {
        switch self {
        case .caption, .body, .key: return .regular
        case .bodyBold, .headline, .title: return .bold
        case .amount: return .monospaced
        }
    }
}
