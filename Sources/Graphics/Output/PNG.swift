import CPNG
import FoundationEssentials

/// PNG encoding of surfaces (screenshots, goldens) and decoding of images,
/// through libpng's simplified API so no compression code lives here.
public enum PNG {
    /// Encodes `surface` as an opaque 8-bit RGB PNG.
    /// - Throws: ``PNGError`` when libpng fails.
    public static func encode(_ surface: Surface) throws -> [UInt8] {
        let width = surface.width, height = surface.height
        var rgb = [UInt8](repeating: 0, count: max(1, width * height * 3))
        for y in 0..<height {
            let row = surface.row(y)
            var o = y * width * 3
            for x in 0..<width {
                let p = row[x]
                rgb[o] = UInt8(truncatingIfNeeded: p >> 16)
                rgb[o + 1] = UInt8(truncatingIfNeeded: p >> 8)
                rgb[o + 2] = UInt8(truncatingIfNeeded: p)
                o += 3
            }
        }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = png_uint_32(PNG_FORMAT_RGB)
        var byteCount: png_alloc_size_t = 0
        // The first call only reports the size the second call needs.
        guard png_image_write_to_memory(&image, nil, &byteCount, 0, rgb, png_int_32(width * 3), nil) != 0 else {
            throw PNGError(operation: "encode", message: message(of: &image))
        }
        var output = [UInt8](repeating: 0, count: Int(byteCount))
        let ok = output.withUnsafeMutableBytes { buffer in
            png_image_write_to_memory(&image, buffer.baseAddress, &byteCount, 0, rgb, png_int_32(width * 3), nil)
        }
        guard ok != 0 else { throw PNGError(operation: "encode", message: message(of: &image)) }
        return Array(output.prefix(Int(byteCount)))
    }

    /// Writes `surface` as a PNG file at `path`, replacing any existing file.
    public static func write(_ surface: Surface, to path: String) throws {
        try Data(encode(surface)).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Decodes PNG bytes into an ``Image`` with straight alpha.
    /// - Throws: ``PNGError`` for data that is not a PNG libpng can read.
    public static func decode(_ bytes: [UInt8]) throws -> Image {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        let begun = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw PNGError(operation: "decode", message: message(of: &image)) }
        image.format = png_uint_32(PNG_FORMAT_BGRA)
        let width = Int(image.width), height = Int(image.height)
        var pixels = [UInt32](repeating: 0, count: width * height)
        let finished = pixels.withUnsafeMutableBytes {
            png_image_finish_read(&image, nil, $0.baseAddress, png_int_32(width * 4), nil)
        }
        guard finished != 0 else {
            let text = message(of: &image)
            png_image_free(&image)
            throw PNGError(operation: "decode", message: text)
        }
        // BGRA bytes read as a little-endian word are exactly 0xAARRGGBB.
        return Image(size: Size(width: width, height: height), pixels: pixels.map { UInt32(littleEndian: $0) })
    }

    /// Reads and decodes the PNG file at `path`.
    public static func read(contentsOf path: String) throws -> Image {
        try decode([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
