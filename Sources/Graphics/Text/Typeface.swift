import CFreeType

/// One font file opened by FreeType (an `FT_Face`), shared by every size of it.
///
/// FreeType keeps one current pixel size per face, so ``Font`` calls
/// ``select(pixelSize:)`` before it rasterises; the face remembers the size to
/// skip redundant calls. Not thread-safe.
public final class Typeface {
    /// The file this face was loaded from.
    public let path: String
    let face: FT_Face
    /// Keeps `FT_Library` alive until every face made from it is done.
    private let library: FreeTypeLibrary
    private var selectedPixelSize = 0

    init(path: String, library: FreeTypeLibrary) throws {
        var face: FT_Face?
        let error = FT_New_Face(library.handle, path, 0, &face)
        guard error == 0, let face else {
            throw FontError.freeType(operation: "FT_New_Face", path: path, code: error)
        }
        self.path = path
        self.face = face
        self.library = library
    }

    deinit { FT_Done_Face(face) }

    /// Whether the file carries a kerning table FreeType can read.
    public var hasKerning: Bool { cft_has_kerning(face) != 0 }

    /// Makes `pixelSize` the size FreeType scales to.
    func select(pixelSize: Int) {
        guard pixelSize != selectedPixelSize else { return }
        let error = FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize))
        precondition(error == 0, "FT_Set_Pixel_Sizes(\(pixelSize)) failed for \(path) with error \(error)")
        selectedPixelSize = pixelSize
    }
}
