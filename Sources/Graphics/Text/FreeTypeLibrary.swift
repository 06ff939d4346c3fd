import CFreeType

/// Owns the `FT_Library` handle; released only after the last face.
final class FreeTypeLibrary {
    let handle: FT_Library

    init() throws {
        var library: FT_Library?
        let error = FT_Init_FreeType(&library)
        guard error == 0, let library else {
            throw FontError.freeType(operation: "FT_Init_FreeType", path: "-", code: error)
        }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }
}
