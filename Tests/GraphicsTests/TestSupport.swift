import Graphics

/// Counts the pixels of `surface` equal to `pixel`, and where they are.
func pixels(of surface: Surface, equalTo pixel: UInt32) -> (count: Int, bounds: Rect) {
    var count = 0
    var bounds = Rect.zero
    for y in 0..<surface.height {
        for x in 0..<surface.width where surface[x, y] == pixel {
            count += 1
            bounds = bounds.union(Rect(x: x, y: y, width: 1, height: 1))
        }
    }
    return (count, bounds)
}

/// The box of every pixel that differs from `background`.
func inkBounds(of surface: Surface, background: UInt32) -> Rect {
    var bounds = Rect.zero
    for y in 0..<surface.height {
        for x in 0..<surface.width where surface[x, y] != background {
            bounds = bounds.union(Rect(x: x, y: y, width: 1, height: 1))
        }
    }
    return bounds
}

/// Sum of the green channel over the surface divided by 255: covered area in pixels
/// when white was drawn on black.
func coveredArea(of surface: Surface) -> Double {
    var sum = 0
    for y in 0..<surface.height {
        for x in 0..<surface.width { sum += Int(surface[x, y] >> 8 & 0xFF) }
    }
    return Double(sum) / 255
}

/// A font library of its own for each test: libraries are not thread-safe and
/// Swift Testing runs tests in parallel.
var freshFonts: FontLibrary {
    do { return try FontLibrary() } catch { fatalError("\(error)") }
}

/// Every pixel of `surface`, row by row: two drawings compare equal when they match exactly.
func allPixels(of surface: Surface) -> [UInt32] {
    (0..<surface.height).flatMap { y in (0..<surface.width).map { x in surface[x, y] } }
}
