import TesseraCore

/// An animation's frames as the file stores them, read without decoding any pixels: what frame
/// timing needs, and what `gifsicle --info` and `webpmux -info` report.
public struct AnimationRecords: Sendable, Equatable {
    public struct Frame: Sendable, Equatable {
        /// In the file's own unit: GIF centiseconds, WebP milliseconds.
        public var rawDelay: Int
        /// The same delay in milliseconds, unclamped.
        public var delayMs: Int
        /// GIF: `none` (no Graphic Control Extension, or 0), `asis`, `background`, `previous`;
        /// WebP: `none`, `background`.
        public var disposal: String
        public var x: Int, y: Int, width: Int, height: Int
        /// WebP: alpha-blend onto the canvas (true) or overwrite; GIF always blends.
        public var blends: Bool
        /// GIF: how many images are drawn for this frame (more than 1 when images without a
        /// delay are merged into the next, see `SubImagePolicy`); the rectangle is their union.
        public var subImages = 1
    }

    public var format: ImageFormat
    public var canvasWidth: Int
    public var canvasHeight: Int
    /// The loop field as stored (GIF NETSCAPE2.0 / WebP ANIM), nil when the file has none.
    public var loopField: Int?
    public var frames: [Frame]
    /// Set when the file ended or broke before its trailer; the frames listed are the ones read.
    public var truncation: String?
}

extension ImageDecoders {
    /// Reads the frame table of a GIF or WebP. A still image has one frame with no delay. GIF
    /// images become frames as `subImages` says, as the frame readers composite them.
    public static func animationRecords(of source: SourceBytes, subImages: SubImagePolicy = .merge)
        throws(TesseraError) -> AnimationRecords {
        switch try format(of: source) {
        case .gif:
            return try GIFDecoder().records(source).grouped(by: subImages)
        case .webp:
            let container = try WebPContainer(source)
            let frames = container.frames.map {
                AnimationRecords.Frame(rawDelay: $0.durationMs, delayMs: $0.durationMs,
                                       disposal: $0.disposeToBackground ? "background" : "none",
                                       x: $0.x, y: $0.y, width: $0.width, height: $0.height, blends: $0.blends)
            }
            return AnimationRecords(
                format: .webp, canvasWidth: container.info.width, canvasHeight: container.info.height,
                loopField: container.info.loopCount,
                frames: frames.isEmpty ? [AnimationRecords.Frame(rawDelay: 0, delayMs: 0, disposal: "none", x: 0, y: 0,
                                                                 width: container.info.width,
                                                                 height: container.info.height, blends: false)]
                    : frames,
                truncation: nil)
        case let other:
            throw TesseraError(.invalidInput, file: source.path, origin: .timing,
                               reason: "\(other.displayName) is not an animation format; only GIF and WebP animate")
        }
    }
}

extension AnimationRecords {
    /// Whether any image has a delay: under `merge`, a file without one keeps every image a frame.
    var hasDelays: Bool { frames.contains { $0.rawDelay > 0 } }

    /// The images grouped into frames as `policy` says: a merged frame has the group's summed
    /// delay, the last image's disposal and the union of the images' rectangles.
    func grouped(by policy: SubImagePolicy) -> AnimationRecords {
        let fileHasDelays = hasDelays
        var result = self
        result.frames = []
        var pending: Frame?
        for (index, image) in frames.enumerated() {
            var frame = image
            if let earlier = pending {
                let left = min(earlier.x, image.x), top = min(earlier.y, image.y)
                let right = max(earlier.x + earlier.width, image.x + image.width)
                let bottom = max(earlier.y + earlier.height, image.y + image.height)
                // GIF delays and rectangles are 16-bit, so these sums cannot overflow.
                frame.rawDelay += earlier.rawDelay
                frame.delayMs += earlier.delayMs
                (frame.x, frame.y, frame.width, frame.height) = (left, top, right - left, bottom - top)
                frame.subImages += earlier.subImages
            }
            if policy.endsFrame(delayCentiseconds: image.rawDelay, fileHasDelays: fileHasDelays)
                || index == frames.count - 1 {
                result.frames.append(frame)
                pending = nil
            } else {
                pending = frame
            }
        }
        return result
    }
}

extension GIFDecoder {
    /// The frame table, read from the block structure alone.
    func records(_ source: SourceBytes) throws(TesseraError) -> AnimationRecords {
        try GIFBlockReader(bytes: UnsafeBufferPointer(start: source.pointer, count: source.count), path: source.path).read()
    }
}
