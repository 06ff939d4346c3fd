import Graphics

/// A font by value (weight and pixel size), so laid-out trees stay comparable;
/// the ``Renderer`` turns it into a ``Font`` through its ``FontLibrary``.
public struct FontSpec: Hashable, Sendable {
    public var weight: FontWeight
    public var pixelSize: Int

    public init(weight: FontWeight, pixelSize: Int) {
        self.weight = weight
        self.pixelSize = pixelSize
    }
}
