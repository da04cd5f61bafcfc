#if PDFRasterizing
import CPDFRender
import TesseraCore

/// PDF through MuPDF (AGPL-3.0-or-later): only in a build with the `PDFRasterizing` trait.
/// docs/vectors.md gives the measurements and the licence reasoning behind the choice.
///
/// Each call opens the document afresh in its own MuPDF context, so a `VectorDocument` stays a
/// plain value and renders on any thread; for image-set PDFs (kilobytes) parsing is a small
/// part of the render.
enum PDFRenderer {
    struct Description {
        var page: PageSize
        var pageCount: Int
        var iccProfile: [UInt8]
        /// What MuPDF repaired to open the file (the first error it answered: `cannot find
        /// startxref`); nil for a file that opened whole.
        var repair: String?
    }

    static func describe(_ bytes: [UInt8], limits: VectorLimits, path: String?) throws(TesseraError) -> Description {
        var info = tessera_pdf_info()
        var icc = [UInt8](repeating: 0, count: 1 << 16)
        var message = [CChar](repeating: 0, count: 512)
        let status = bytes.withUnsafeBufferPointer { data in
            icc.withUnsafeMutableBufferPointer { profile in
                tessera_pdf_measure(data.baseAddress, data.count, limits.maxRendererBytes, &info,
                                    profile.baseAddress, profile.count, &message, message.count)
            }
        }
        guard status == 0 else { throw failure(message, path: path) }
        guard info.width.isFinite, info.height.isFinite, info.width > 0, info.height > 0 else {
            throw TesseraError(.invalidInput, file: path, origin: .rasterize,
                               reason: "PDF first page is \(info.width)×\(info.height) pt; it needs a positive size")
        }
        return Description(page: PageSize(width: info.width, height: info.height), pageCount: Int(info.page_count),
                           iccProfile: Array(icc.prefix(info.icc_length)),
                           repair: info.repaired != 0 ? text(message) : nil)
    }

    static func render(_ bytes: [UInt8], width: Int, height: Int, colorSpace: ColorSpace, limits: VectorLimits,
                       path: String?) throws(TesseraError) -> Bitmap {
        var bitmap = try Bitmap.unfilled(width: width, height: height, format: .rgba8, alpha: .straight,
                                         colorSpace: colorSpace)
        var message = [CChar](repeating: 0, count: 512)
        let status = bytes.withUnsafeBufferPointer { data in
            bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
                tessera_pdf_render(data.baseAddress, data.count, limits.maxRendererBytes, limits.renderSeconds,
                                   pixels.baseAddress, Int32(width), Int32(height), &message, message.count)
            }
        }
        guard status == 0 else { throw failure(message, path: path, overTime: status == -2) }
        return bitmap
    }

    static var libraryVersion: String { String(cString: tessera_pdf_library_version()) }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func failure(_ message: [CChar], path: String?, overTime: Bool = false) -> TesseraError {
        let said = text(message)
        let kind: TesseraError.Kind = overTime || said.contains("memory limit") ? .limitExceeded : .invalidInput
        return TesseraError(kind, file: path, origin: .rasterize, reason: "PDF: \(said)")
    }
}
#endif
