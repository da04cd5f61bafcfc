import CGIF
import TesseraCore

/// Streams a GIF's frames composited as browsers and Apple's ImageIO draw them.
///
/// Rules, written down because GIF leaves them open:
/// - the canvas starts fully transparent, and "restore to background" clears to transparent (the
///   background colour index is ignored, as every browser does);
/// - a frame's transparent index (from its Graphic Control Extension) leaves the canvas as is;
/// - an index past the end of the colour table is treated like the transparent index;
/// - with no colour table at all, index i is the gray (i, i, i), as Pillow does;
/// - frames reaching past the canvas are clipped; zero-size frames draw nothing but still count;
/// - a file that ends early keeps the frames read so far, and `truncation` says why;
/// - images become frames as `options.subImages` says: under `merge` an image without a delay is
///   drawn with the next ones and only the canvas after the group's last image is a frame.
final class GIFFrameReader: AnimationFrameReader {
    private let file: GIFFile
    private let options: DecodeOptions
    /// Whether any image in the file has a delay; `SubImagePolicy.merge` keeps every image of a
    /// file without one as a frame.
    private let fileHasDelays: Bool
    private(set) var info: ImageInfo
    private(set) var truncation: String?
    private var canvas: [UInt8]
    private var saved: [UInt8]?
    private var pendingDisposal = (kind: 0, x: 0, y: 0, width: 0, height: 0)
    private var nextIndex = 0
    private var finished = false

    convenience init(_ source: SourceBytes, options: DecodeOptions) throws(TesseraError) {
        // giflib refuses LZW code sizes the format does not allow with only "failed to read";
        // say what is wrong instead.
        var codeSizes: [Int] = []
        let records = try GIFBlockReader(bytes: UnsafeBufferPointer(start: source.pointer, count: source.count), path: source.path)
            .read(codeSizes: &codeSizes)
        if let (index, size) = codeSizes.enumerated().first(where: { !(2...8).contains($0.element) }) {
            throw TesseraError(.invalidInput, file: source.path, origin: .decode,
                               reason: "GIF: frame \(index + 1) declares LZW code size \(size); GIF allows 2 to 8, so its pixels cannot be decoded")
        }
        try self.init(file: GIFFile(source), options: options, fileHasDelays: records.hasDelays)
    }

    /// Streams from the file: memory stays at the canvas and one saved canvas, whatever the file's size.
    convenience init(fileAt path: String, options: DecodeOptions) throws(TesseraError) {
        // Merging needs to know up front whether any image has a delay: a first pass over the
        // blocks, skipping pixel data, answers it (usually at the first image).
        let hasDelays = options.subImages == .merge ? try GIFFile(file: OpenFile(path: path)).hasDelays() : true
        try self.init(file: GIFFile(file: OpenFile(path: path)), options: options, fileHasDelays: hasDelays)
    }

    private init(file: GIFFile, options: DecodeOptions, fileHasDelays: Bool) throws(TesseraError) {
        self.file = file
        self.options = options
        self.fileHasDelays = fileHasDelays
        info = Self.baseInfo(file)
        try options.check(info, path: file.path)
        canvas = [UInt8](repeating: 0, count: info.width * info.height * 4)
    }

    static func baseInfo(_ file: GIFFile) -> ImageInfo {
        ImageInfo(format: .gif, width: file.canvasWidth, height: file.canvasHeight, bitDepth: 8, colorModel: "palette",
                  hasAlpha: true, needsWholeImage: true, frameCount: 1, colorSpace: .unspecified, iccProfile: nil)
    }

    /// The images drawn since the last frame was shown.
    private struct Group {
        var rawDelay = 0
        var disposal = 0
        var left = 0, top = 0, right = 0, bottom = 0
        var count = 0

        mutating func add(_ control: GIFFile.GraphicControl, left: Int, top: Int, width: Int, height: Int) {
            // 16-bit fields: no sum here can overflow.
            if count == 0 {
                (self.left, self.top, right, bottom) = (left, top, left + width, top + height)
            } else {
                (self.left, self.top) = (min(self.left, left), min(self.top, top))
                (right, bottom) = (max(right, left + width), max(bottom, top + height))
            }
            rawDelay += control.delayCentiseconds
            disposal = control.disposal
            count += 1
        }
    }

    func nextFrame() throws(TesseraError) -> AnimationFrame? {
        guard !finished else { return nil }
        var control = GIFFile.GraphicControl()
        var group = Group()
        do {
            while true {
                switch try file.nextRecord() {
                case .graphicControl(let value):
                    control = value
                case .loopCount(let count):
                    info.loopCount = count
                case .otherExtension:
                    continue
                case .end:
                    finished = true
                    // Images still waiting for a delay end the animation as its last frame.
                    return group.count > 0 ? try show(group) : nil
                case .image:
                    try drawImage(control, into: &group)
                    if options.subImages.endsFrame(delayCentiseconds: control.delayCentiseconds,
                                                   fileHasDelays: fileHasDelays) {
                        return try show(group)
                    }
                    control = GIFFile.GraphicControl()
                }
            }
        } catch {
            finished = true
            guard nextIndex > 0 || group.count > 0 else { throw error }
            let reason = error.reason.dropFirst("GIF: ".count)
            let frame = group.count > 0 ? try? show(group) : nil
            truncation = "stopped after \(nextIndex) frames: \(reason)"
            return frame
        }
    }

    /// Draws one image onto the canvas, after undoing the previous image as its disposal asks.
    private func drawImage(_ control: GIFFile.GraphicControl, into group: inout Group) throws(TesseraError) {
        try options.checkpoint()
        let descriptor = file.image
        let left = Int(descriptor.Left), top = Int(descriptor.Top)
        let width = Int(descriptor.Width), height = Int(descriptor.Height)
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > options.maxPixels {
            throw file.failure("frame \(nextIndex + 1) claims \(width)×\(height) pixels, over the limit of \(options.maxPixels)")
        }
        applyPendingDisposal()
        if control.disposal == 3 { saved = canvas }
        try composite(left: left, top: top, width: width, height: height, transparent: control.transparentIndex)
        pendingDisposal = (control.disposal, left, top, width, height)
        group.add(control, left: left, top: top, width: width, height: height)
    }

    /// The canvas as it stands, as the next frame.
    private func show(_ group: Group) throws(TesseraError) -> AnimationFrame {
        var frame = AnimationFrame(
            index: nextIndex,
            canvas: try Bitmap(width: info.width, height: info.height, format: .rgba8, alpha: .straight,
                               pixels: canvas),
            rawDelay: group.rawDelay, delayMs: group.rawDelay * 10,
            disposal: ["none", "asis", "background", "previous"][min(group.disposal, 3)],
            x: group.left, y: group.top, width: group.right - group.left, height: group.bottom - group.top)
        frame.subImages = group.count
        nextIndex += 1
        return frame
    }

    /// Undoes the previous frame as its disposal asks, before the next one is drawn.
    private func applyPendingDisposal() {
        switch pendingDisposal.kind {
        case 2:
            let (x0, y0, x1, y1) = clip(pendingDisposal.x, pendingDisposal.y, pendingDisposal.width,
                                        pendingDisposal.height)
            let width = info.width
            canvas.withUnsafeMutableBufferPointer { pixels in
                for y in y0..<y1 {
                    let start = (y * width + x0) * 4
                    (pixels.baseAddress! + start).update(repeating: 0, count: (x1 - x0) * 4)
                }
            }
        case 3:
            if let saved { canvas = saved }
            self.saved = nil
        default:
            break
        }
    }

    private func clip(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> (Int, Int, Int, Int) {
        let x0 = min(max(x, 0), info.width), y0 = min(max(y, 0), info.height)
        let x1 = min(max(x + width, x0), info.width), y1 = min(max(y + height, y0), info.height)
        return (x0, y0, x1, y1)
    }

    private func composite(left: Int, top: Int, width: Int, height: Int, transparent: Int?) throws(TesseraError) {
        guard width > 0, height > 0 else { return }
        var palette = [UInt8](repeating: 0, count: 256 * 3)
        var colorCount = 256
        if let map = file.activeColorMap {
            colorCount = Int(map.pointee.ColorCount)
            for index in 0..<min(colorCount, 256) {
                let color = map.pointee.Colors[index]
                palette[index * 3] = color.Red
                palette[index * 3 + 1] = color.Green
                palette[index * 3 + 2] = color.Blue
            }
        } else {
            for index in 0..<256 { for channel in 0..<3 { palette[index * 3 + channel] = UInt8(index) } }
        }
        let rows = Self.rowOrder(height: height, interlaced: file.image.Interlace)
        var line = [GifPixelType](repeating: 0, count: width)
        let canvasWidth = info.width, canvasHeight = info.height
        // Only the part of each row that lands on the canvas is drawn.
        let firstColumn = max(0, -left), lastColumn = min(width, canvasWidth - left)
        let transparentIndex = transparent ?? -1
        for row in rows {
            try line.withUnsafeMutableBufferPointer { buffer throws(TesseraError) in
                try file.readLine(into: buffer.baseAddress!, length: width)
            }
            let y = top + row
            guard y >= 0, y < canvasHeight, firstColumn < lastColumn else { continue }
            canvas.withUnsafeMutableBufferPointer { target in
                line.withUnsafeBufferPointer { source in
                    palette.withUnsafeBufferPointer { colors in
                        var pixel = (y * canvasWidth + left + firstColumn) * 4
                        for column in firstColumn..<lastColumn {
                            let index = Int(source[column])
                            if index != transparentIndex && index < colorCount {
                                target[pixel] = colors[index * 3]
                                target[pixel + 1] = colors[index * 3 + 1]
                                target[pixel + 2] = colors[index * 3 + 2]
                                target[pixel + 3] = 255
                            }
                            pixel += 4
                        }
                    }
                }
            }
        }
    }

    /// The order rows arrive in: top to bottom, or GIF's four interlace passes.
    static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: height, by: step)) }
    }
}
