/// What the colour of a word on screen means. The view model decides it, as
/// it decides the word; a screen only maps it to its theme's colour.
public enum Tone: Hashable, Sendable {
    /// Nothing to notice: waiting, in flight, or already dealt with.
    case neutral
    /// It went through.
    case positive
    /// A person should look at it.
    case attention
    /// It failed, and someone has to act.
    case negative
}
