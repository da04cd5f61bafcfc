import ArgumentParser
import Decoding
import Foundation
import ReadyBitmaps
import TesseraCore

/// `tessera inspect FILE...`: what each image is, read from its header (or decoded with --decode).
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Describe images: format, size, frames, depth, colour, alpha, orientation, ICC, decoded memory cost.",
        discussion: "Exits 1 when any file cannot be read; the others are still described.")

    @Argument(help: "Image files (PNG, JPEG, WebP, GIF, PDF, SVG, or Tessera .bitmap).")
    var files: [String]

    @OptionGroup var result: ResultOutput

    @Flag(help: "Decode every pixel as well (draw a PDF or SVG at 1x), to prove the whole file is intact (slower).")
    var decode = false

    func run() throws {
        var reports: [FileReport] = []
        for path in files {
            do {
                reports.append(try describe(path))
            } catch {
                reports.append(FileReport(path: path, error: error.description))
            }
        }
        if !result.json {
            for report in reports { if let error = report.error { printError("error: \(error)") } }
        }
        try result.emit(reports, under: "files") { reports.compactMap { $0.error == nil ? $0.summary + "\n" : nil }.joined() }
        if reports.contains(where: { $0.error != nil }) { throw ExitCode(1) }
    }

    private func describe(_ path: String) throws(TesseraError) -> FileReport {
        if let vector = VectorInspection.format(of: path) {
            return try VectorInspection.report(path: path, format: vector, draw: decode)
        }
        let source = try ImageSource(fileAt: path)
        if case .whole(let bytes) = source.reading, bytes.prefix.starts(with: ReadyBitmapHeader.magic) {
            return try FileReport(path: path, bitmap: bytes)
        }
        let check: PixelCheck? = decode ? try source.checkPixels() : nil
        let info = if let check { check.info } else { try source.header.get().info }
        var report = FileReport(path: path, info: info)
        let warnings = (ImageDecoders.extensionMismatch(path: path, format: info.format).map { [$0] } ?? [])
            + (check?.warnings ?? [])
        report.warnings = warnings.isEmpty ? nil : warnings
        return report
    }
}

/// One file's line (or JSON object) in `tessera inspect`.
struct FileReport: Encodable {
    var path: String
    var format: String?
    var width: Int?
    var height: Int?
    var frames: Int?
    var bitDepth: Int?
    var colorModel: String?
    var alpha: Bool?
    var orientation: Int?
    var icc: String?
    var colorSpace: String?
    var layout: String?
    var loopCount: Int?
    var decodedBytes: Int?
    /// PDF and SVG: the first page's size in points, the page count, and the pixel size drawn at each scale.
    var pageSize: String?
    var pages: Int?
    var draws: [String: String]?
    var warnings: [String]?
    var error: String?

    init(path: String, error: String? = nil) {
        self.path = path
        self.error = error
    }

    init(path: String, info: ImageInfo) {
        self.path = path
        format = info.format.displayName
        width = info.width
        height = info.height
        frames = info.frameCount
        bitDepth = info.bitDepth
        colorModel = info.colorModel
        alpha = info.hasAlpha
        orientation = info.orientation.rawValue
        icc = info.iccName
        colorSpace = switch info.colorSpace {
        case .sRGB: "sRGB"
        case .displayP3: "Display P3"
        case .icc(let name): name
        case .unspecified: "unspecified"
        }
        layout = switch info.format {
        case .png: info.needsWholeImage ? "interlaced" : "non-interlaced"
        case .jpeg: info.needsWholeImage ? "progressive" : "sequential"
        default: nil
        }
        loopCount = info.loopCount
        // An animation streams through a canvas and one saved canvas.
        decodedBytes = info.decodedByteCount * (info.frameCount > 1 ? 2 : 1)
    }

    /// A ready-to-draw bitmap, described from its header.
    init(path: String, bitmap source: SourceBytes) throws(TesseraError) {
        let bytes = Array(UnsafeBufferPointer(start: source.pointer, count: source.count))
        let header = try ReadyBitmapHeader.decode(bytes, fileSize: bytes.count, path: path)
        self.init(path: path)
        format = "bitmap (\(header.layout.rawValue), premultiplied)"
        width = header.width
        height = header.height
        alpha = !header.opaque
        orientation = header.appliedOrientation.rawValue
        decodedBytes = header.dataLength
    }

    var summary: String {
        let what = format ?? "?"
        var parts = [pageSize.map { "\(what) page \($0)" } ?? width.map { "\(what) \($0)×\(height ?? 0)" } ?? what]
        if let pages, pages > 1 { parts.append("\(pages) pages (the first is drawn)") }
        if let draws { parts.append("draws " + draws.keys.sorted().map { "\(draws[$0]!) at \($0)" }.joined(separator: ", ")) }
        if let frames, frames > 1 { parts.append("\(frames) frames" + (loopCount.map { ", loop field \($0)" } ?? "")) }
        if let bitDepth, let colorModel { parts.append("\(bitDepth)-bit \(colorModel)") }
        if let alpha { parts.append(alpha ? "alpha" : "opaque") }
        if let orientation, orientation != 1 { parts.append("orientation \(orientation)") }
        if let icc { parts.append("ICC \"\(icc)\"") } else if let colorSpace { parts.append(colorSpace) }
        if let layout { parts.append(layout) }
        if let decodedBytes { parts.append("decodes to \(ByteCount(bytes: decodedBytes))") }
        var line = "\(path): " + parts.joined(separator: ", ")
        for warning in warnings ?? [] { line += "\n  warning: \(warning)" }
        return line
    }
}
