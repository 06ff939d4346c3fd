/// The two looks of a control a finger can press (a button, a key, a list
/// row), laid out together so that a press or a release only swaps paints.
public struct PressAppearance: Hashable, Sendable {
    public var released: [Paint]
    public var pressed: [Paint]

    public init(released: [Paint], pressed: [Paint]) {
        self.released = released
        self.pressed = pressed
    }

    /// The paints for the control as `isPressed` has it.
    public func paints(isPressed: Bool) -> [Paint] { isPressed ? pressed : released }
}
