import Foundation
import TesseraCore

/// The raster images an SVG carries inside itself as `data:` URLs, decoded from base64 (and those
/// of any SVG it embeds the same way, four levels deep).
///
/// librsvg decodes such an image whole before it draws, outside `VectorLimits.maxPixels` and the
/// memory budget: a 1.6 MB SVG embedding a 20,000 × 20,000 PNG took 4.6 GB (issue 39). Each
/// embedded image is therefore measured from its header before the document is opened, and held
/// to the same pixel limit as a top-level image — each one, and all of them together.
enum EmbeddedImages {
    /// One embedded image: its media type as written, and its bytes.
    struct Image {
        let mediaType: String
        let bytes: [UInt8]
    }

    static let maxDepth = 4

    /// Every `data:image/…` payload in `bytes`, nested SVGs opened up to `maxDepth`.
    static func all(in bytes: [UInt8], depth: Int = 0) -> [Image] {
        var images: [Image] = []
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        let marker = Array("data:image/".utf8)
        var index = 0
        while let hit = ExternalReferences.find(marker, in: lowered, from: index) {
            var cursor = hit + marker.count
            let typeEnd = lowered[cursor...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") || $0 == UInt8(ascii: ")") } ?? lowered.count
            index = typeEnd
            guard typeEnd < lowered.count, lowered[typeEnd] == UInt8(ascii: ",") else { continue }
            let header = String(decoding: lowered[cursor..<typeEnd], as: UTF8.self)
            let mediaType = "image/" + (header.split(separator: ";").first.map(String.init) ?? "")
            cursor = typeEnd + 1
            let end = bytes[cursor...].firstIndex { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") || $0 == UInt8(ascii: ")") } ?? bytes.count
            let payload = Array(bytes[cursor..<end])
            index = end
            let decoded: [UInt8]
            if header.split(separator: ";").contains("base64") {
                guard let data = Data(base64Encoded: Data(payload), options: .ignoreUnknownCharacters) else {
                    images.append(Image(mediaType: mediaType, bytes: []))
                    continue
                }
                decoded = [UInt8](data)
            } else {
                decoded = Array((String(decoding: payload, as: UTF8.self).removingPercentEncoding ?? "").utf8)
            }
            if mediaType.hasPrefix("image/svg") {
                if depth < maxDepth { images += all(in: decoded, depth: depth + 1) }
            } else {
                images.append(Image(mediaType: mediaType, bytes: decoded))
            }
        }
        return images
    }

    /// Throws when an embedded image cannot be measured or is over `maxPixels`, or all of them
    /// together are.
    static func check(_ bytes: [UInt8], maxPixels: Int, reader: any ImageDimensionsReading, path: String?) throws(TesseraError) {
        var total = 0
        for image in all(in: bytes) {
            guard let (width, height) = reader.dimensions(of: image.bytes), width > 0, height > 0 else {
                throw TesseraError(.invalidInput, file: path, origin: .rasterize,
                                   reason: "SVG embeds an image (\(image.mediaType.prefix(40)), \(image.bytes.count) bytes) that is not a PNG, JPEG, GIF or WebP Tessera can measure; refused rather than drawn unbounded")
            }
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            guard !overflow, pixels <= maxPixels else {
                throw TesseraError(.limitExceeded, file: path, origin: .rasterize,
                                   reason: "SVG embeds a \(width)×\(height) image in a data: URL, over the pixel limit of \(maxPixels)")
            }
            total += pixels
            guard total <= maxPixels else {
                throw TesseraError(.limitExceeded, file: path, origin: .rasterize,
                                   reason: "SVG embeds images of \(total) pixels in all, over the pixel limit of \(maxPixels)")
            }
        }
    }
}
