import CSVGRender
import TesseraCore

/// SVG through librsvg (LGPL-2.1-or-later, linked dynamically, so any build may include it).
///
/// Documents are opened from memory with no base file. librsvg resolves every href against the
/// base file and, without one, loads nothing but `data:` URLs and the document's own fragments:
/// no file outside the document is read and no network request is made (the tests serve one on
/// loopback and check it is never asked). librsvg's XML limits stay on (entity loops, nesting
/// deeper than 256, more than 500,000 referenced elements are errors).
enum SVGRenderer {
    static func measure(_ bytes: [UInt8], path: String?) throws(TesseraError) -> PageSize {
        var width = 0.0, height = 0.0
        var message = [CChar](repeating: 0, count: 512)
        let status = bytes.withUnsafeBufferPointer { data in
            tessera_svg_measure(data.baseAddress, data.count, &width, &height, &message, message.count)
        }
        guard status == 0 else { throw failure(message, path: path) }
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            throw TesseraError(.invalidInput, file: path, stage: .rasterize,
                               reason: "SVG size is \(width)×\(height); it needs a positive width and height or viewBox")
        }
        return PageSize(width: width, height: height)
    }

    static func render(_ bytes: [UInt8], width: Int, height: Int, path: String?) throws(TesseraError) -> Bitmap {
        var bitmap = try Bitmap.unfilled(width: width, height: height, format: .rgba8, alpha: .straight, colorSpace: .sRGB)
        var message = [CChar](repeating: 0, count: 512)
        let status = bytes.withUnsafeBufferPointer { data in
            bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
                tessera_svg_render(data.baseAddress, data.count, pixels.baseAddress, Int32(width), Int32(height),
                                   &message, message.count)
            }
        }
        guard status == 0 else { throw failure(message, path: path) }
        return bitmap
    }

    static var libraryVersion: String { String(cString: tessera_svg_library_version()) }

    private static func failure(_ message: [CChar], path: String?) -> TesseraError {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let kind: TesseraError.Kind = text.contains("exceeded") || text.contains("Excessive") ? .limitExceeded : .invalidInput
        return TesseraError(kind, file: path, stage: .rasterize, reason: "SVG: \(text)")
    }
}
