import CFreeType
import CHarfBuzz

/// HarfBuzz over one ``Font``'s FreeType face at its pixel size: turns a run
/// of scalars of one direction into glyph indices and 26.6 positions, with
/// Arabic letters in their joined forms and ligatures such as lam-alef.
///
/// HarfBuzz reads advances from the shared `FT_Face` at whatever size it is
/// set to, so the font selects its pixel size before every ``shape(_:range:rightToLeft:_:)``.
/// Not thread-safe.
final class RunShaper {
    /// `hb_font_t`, referencing the face.
    private let font: OpaquePointer
    /// `hb_buffer_t`, reused for every run.
    private let buffer: OpaquePointer
    /// Keeps the face and its `FT_Library` alive until the HarfBuzz font lets
    /// go of the face: `FT_Done_FreeType` frees every face, referenced or not.
    private let typeface: Typeface

    /// - Precondition: the typeface's face is set to the pixel size the shaper is for.
    init(typeface: Typeface) {
        self.typeface = typeface
        font = hb_ft_font_create_referenced(typeface.face)
        // The same hinting as the masks, so shaped advances match the scalar path's.
        hb_ft_font_set_load_flags(font, charfbuzz_ft_load_light())
        buffer = hb_buffer_create()
    }

    deinit {
        hb_buffer_destroy(buffer)
        hb_font_destroy(font)
    }

    /// Shapes `scalars[range]`, the rest of `scalars` serving as context (so
    /// a letter joins towards a neighbour in another run), and calls `body`
    /// with each glyph left to right on screen: its index in the face, its
    /// advance and its offsets from the pen, in 26.6 (y up).
    func shape(_ scalars: [UInt32], range: Range<Int>, rightToLeft: Bool,
               _ body: (_ glyph: UInt32, _ advance: Int, _ xOffset: Int, _ yOffset: Int) -> Void) {
        hb_buffer_clear_contents(buffer)
        scalars.withUnsafeBufferPointer { text in
            hb_buffer_add_utf32(buffer, text.baseAddress, Int32(text.count), UInt32(range.lowerBound), Int32(range.count))
        }
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return }
        for i in 0..<Int(count) {
            let position = positions[i]
            body(infos[i].codepoint, Int(position.x_advance), Int(position.x_offset), Int(position.y_offset))
        }
    }
}
