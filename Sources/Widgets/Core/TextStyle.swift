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

    /// How much of the operator's text scale this style follows.
    ///
    /// Titles are already large; letting them grow by half the factor keeps
    /// body text readable at 2.0 without headers eating the screen, the
    /// same compromise platform dynamic type makes.
    public var textScaleShare: Double {
        switch self {
        case .title, .headline: return 0.5
        default: return 1
        }
    }

    /// The em size in dp for an operator text scale.
    public func size(textScale: Double) -> Double { size * (1 + (textScale - 1) * textScaleShare) }

    public var weight: FontWeight {
        switch self {
        case .caption, .body, .key: return .regular
        case .bodyBold, .headline, .title: return .bold
        case .amount: return .monospaced
        }
    }
}
