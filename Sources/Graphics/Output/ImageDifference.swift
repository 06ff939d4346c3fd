/// Where a rendered surface differs from its golden image, found tile by
/// tile so that a small local change (one wrong digit) is never averaged
/// away by a whole-screen ratio.
///
/// A pixel differs when any colour channel is off by more than
/// `channelTolerance` (anti-aliasing after a FreeType update); a tile
/// differs when more than `pixelsPerTile` of its pixels do. Regions in
/// `ignoring` (a live clock, "synced 2 min ago") are not compared.
public struct ImageDifference: Sendable {
    public var channelTolerance: UInt32 = 8
    /// 12 px tiles: a digit of the smallest text covers at least one.
    public var tileSize = 12
    public var pixelsPerTile = 3

    public init() {}

    /// The differing tiles, in surface coordinates; empty when the images match.
    /// - Precondition: the sizes are equal (the caller reports a size change itself).
    public func differingTiles(_ surface: Surface, _ golden: Image, ignoring masks: [Rect] = []) -> [Rect] {
        precondition(golden.size == surface.size, "compare sizes first")
        var tiles: [Rect] = []
        for tileY in stride(from: 0, to: surface.height, by: tileSize) {
            for tileX in stride(from: 0, to: surface.width, by: tileSize) {
                let tile = Rect(x: tileX, y: tileY, width: min(tileSize, surface.width - tileX), height: min(tileSize, surface.height - tileY))
                if masks.contains(where: { $0.intersects(tile) }) { continue }
                var differing = 0
                for y in tile.minY..<tile.maxY {
                    let row = surface.row(y)
                    for x in tile.minX..<tile.maxX where Self.differs(row[x], golden.pixels[y * surface.width + x], by: channelTolerance) {
                        differing += 1
                    }
                }
                if differing > pixelsPerTile { tiles.append(tile) }
            }
        }
        return tiles
    }

    private static func differs(_ a: UInt32, _ b: UInt32, by limit: UInt32) -> Bool {
        if a & 0xFFFFFF == b & 0xFFFFFF { return false }
        for shift: UInt32 in [0, 8, 16] {
            let ca = (a >> shift) & 0xFF, cb = (b >> shift) & 0xFF
            if (ca > cb ? ca - cb : cb - ca) > limit { return true }
        }
        return false
    }
}

/// Why a rendered surface does not match its golden PNG.
public enum GoldenMismatch: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case sizeDiffers(path: String, surface: Size, golden: Size)
    /// The differing tiles, first from the top left.
    case tilesDiffer(path: String, tiles: [Rect], tileSize: Int)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read the golden \(path): \(reason)"
        case .sizeDiffers(let path, let surface, let golden):
            "the screen is \(surface.width)x\(surface.height), the golden \(path) \(golden.width)x\(golden.height)"
        case .tilesDiffer(let path, let tiles, let tileSize):
            "\(tiles.count) tile(s) of \(tileSize) px differ from \(path), the first at x \(tiles[0].minX), y \(tiles[0].minY)"
        }
    }
}

extension ImageDifference {
    /// Compares `surface` with the golden PNG at `path`: the one comparison
    /// that the golden tests and `teller scenario` share.
    public func compare(_ surface: Surface, goldenAt path: String, ignoring masks: [Rect] = []) throws(GoldenMismatch) {
        let golden: Image
        do { golden = try PNG.read(contentsOf: path) } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        guard golden.size == surface.size else { throw .sizeDiffers(path: path, surface: surface.size, golden: golden.size) }
        let tiles = differingTiles(surface, golden, ignoring: masks)
        guard tiles.isEmpty else { throw .tilesDiffer(path: path, tiles: tiles, tileSize: tileSize) }
    }
}
