import Decoding
import Foundation
import Rasterizing
import TesseraCore

/// What `tessera inspect` says of a PDF or SVG: the page Xcode would draw, and at what pixel sizes.
enum VectorInspection {
    /// The vector format of `path`, by its first bytes or, for SVG (which may start with an XML
    /// declaration or a comment), its extension; nil for anything else.
    static func format(of path: String) -> VectorFormat? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 12)) ?? Data()
        if ImageFormat.sniff(head) == .pdf { return .pdf }
        if ImageFormat.sniff(head) == .svg || ImageFormat(fileExtension: (path as NSString).pathExtension) == .svg {
            return .svg
        }
        return nil
    }

    static func report(path: String, format: VectorFormat, draw: Bool) throws(TesseraError) -> FileReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.io, file: path, origin: .rasterize, reason: "cannot read the file")
        }
        var report = FileReport(path: path)
        report.format = format.displayName
        let document: VectorDocument
        do {
            document = try VectorDocument(bytes: [UInt8](data), format: format, path: path, embeddedImages: HeaderDimensions())
        } catch where error.kind == .configuration {
            // A build without the PDF renderer still says what the file is.
            report.warnings = ["page size unknown: \(error.reason)"]
            return report
        }
        report.pageSize = document.pageSize.description
        report.pages = document.pageCount
        if !document.warnings.isEmpty { report.warnings = (report.warnings ?? []) + document.warnings }
        report.alpha = true
        report.colorSpace = switch document.colorSpace {
        case .sRGB: "sRGB"
        case .displayP3: "Display P3"
        case .icc(let name): name
        case .unspecified: "unspecified (device RGB)"
        }
        var draws: [String: String] = [:]
        for scale in [RenderScale.x1, .x2, .x3] {
            if let size = try? document.pixelSize(at: scale) { draws[scale.description] = "\(size.width)×\(size.height)" }
        }
        report.draws = draws
        if let size = try? document.pixelSize(at: .x1) {
            (report.width, report.height) = (size.width, size.height)
            report.decodedBytes = size.width * size.height * 4
        }
        if draw { _ = try document.render(scale: .x1) }
        return report
    }
}
