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

    @Argument(help: "Image files (PNG, JPEG, WebP, GIF, or Tessera .bitmap).")
    var files: [String]

    @Flag(help: "Print one JSON array instead of text.")
    var json = false

    @Flag(help: "Decode every pixel as well, to prove the whole file is intact (slower).")
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
        if json {
            try printJSON(reports)
        } else {
            for report in reports {
                if let error = report.error { printError("error: \(error)") } else { print(report.summary) }
            }
        }
        if reports.contains(where: { $0.error != nil }) { throw ExitCode(1) }
    }

    private func describe(_ path: String) throws(TesseraError) -> FileReport {
        // PNG, JPEG and WebP are read from the file as needed: a huge one is never loaded whole.
        let format = try? ImageDecoders.format(ofFileAt: path)
        if let format, [.png, .jpeg, .webp].contains(format),
           let streaming = ImageDecoders.decoder(for: format) as? any RowStreamingDecoder {
            let info = try streaming.probe(fileAt: path)
            var report = FileReport(path: path, info: info)
            if decode, info.streamsByRows {
                let warnings = try verify(path: path, decoder: streaming, info: info)
                report.warnings = warnings.isEmpty ? nil : warnings
                return report
            }
        }
        if format == .gif, decode {
            // Every frame decoded and composited straight from the file: two canvases, whatever its length.
            let reader = try ImageDecoders.frames(fileAt: path)
            var frames = 0
            while try reader.nextFrame() != nil { frames += 1 }
            var info = reader.info
            info.frameCount = frames
            var report = FileReport(path: path, info: info)
            report.warnings = reader.truncation.map { [$0] }
            return report
        }
        let source = try SourceBytes(contentsOfFile: path)
        if source.prefix.starts(with: ReadyBitmapHeader.magic) {
            let bytes = Array(UnsafeBufferPointer(start: source.pointer, count: source.count))
            let header = try ReadyBitmapHeader.decode(bytes, fileSize: bytes.count, path: path)
            var report = FileReport(path: path)
            report.format = "bitmap (\(header.layout.rawValue), premultiplied)"
            report.width = header.width
            report.height = header.height
            report.alpha = !header.opaque
            report.orientation = header.appliedOrientation.rawValue
            report.decodedBytes = header.dataLength
            return report
        }
        let decoder = try ImageDecoders.decoder(for: source)
        let info = try decoder.probe(source)
        var report = FileReport(path: path, info: info)
        var warnings: [String] = []
        if let mismatch = ImageDecoders.extensionMismatch(of: source, format: info.format) { warnings.append(mismatch) }
        if decode { warnings += try verify(source, decoder: decoder, info: info) }
        report.warnings = warnings.isEmpty ? nil : warnings
        return report
    }
}

extension InspectCommand {
    /// Decodes every pixel and throws at the first fault. Streamable files are read in bands of
    /// rows into one small buffer (like `djpeg > /dev/null`), so checking a huge file costs little memory.
    func verify(_ source: SourceBytes, decoder: any ImageDecoder, info: ImageInfo) throws(TesseraError) -> [String] {
        if info.frameCount > 1 {
            // Every frame is decoded and composited, holding only the canvas.
            let reader = try ImageDecoders.frames(fileAt: source.path)
            while try reader.nextFrame() != nil {}
            return reader.truncation.map { [$0] } ?? []
        }
        return try decoder.decode(source, options: DecodeOptions(appliesOrientation: false)).warnings
    }

    /// Streams a PNG, JPEG or still WebP from the file in bands, so checking a huge file holds neither it nor its pixels.
    func verify(path: String, decoder streaming: any RowStreamingDecoder, info: ImageInfo) throws(TesseraError) -> [String] {
        let reader = try streaming.openRows(fileAt: path, scaleDenominator: 1, options: DecodeOptions())
        let band = 64, stride = reader.width * 4
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: band * stride, alignment: 64)
        defer { buffer.deallocate() }
        while reader.rowsRead < reader.height {
            guard try reader.readRows(into: buffer, stride: stride, count: band) > 0 else {
                throw TesseraError(.invalidInput, file: path, stage: .decode,
                                   reason: "\(info.format.displayName) ended after \(reader.rowsRead) of \(reader.height) rows")
            }
        }
        try reader.finish()
        return reader.warnings
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

    var summary: String {
        var parts = ["\(format ?? "?") \(width ?? 0)×\(height ?? 0)"]
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
