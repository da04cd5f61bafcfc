import CWebP
import TesseraCore

/// WebP through libwebp: lossy, lossless and alpha stills, and animations (their first
/// composited frame here; `AnimationFrameReader` streams them all). Stills also stream by rows
/// from the file (`WebPRowReader`), at any whole shrink-on-load factor.
public struct WebPDecoder: RowStreamingDecoder {
    public init() {}

    public var format: ImageFormat { .webp }

    public func probe(_ source: SourceBytes) throws(TesseraError) -> ImageInfo {
        try WebPContainer(source).info
    }

    public func decode(_ source: SourceBytes, options: DecodeOptions) throws(TesseraError) -> DecodedImage {
        let container = try WebPContainer(source)
        try options.check(container.info, path: source.path)
        if container.info.frameCount > 1 {
            let reader = try WebPFrameReader(container, options: options)
            guard let first = try reader.nextFrame() else { throw container.failure("the animation has no frames") }
            return DecodedImage(bitmap: first.canvas, info: container.info, warnings: [])
        }
        return DecodedImage(bitmap: try decodeStill(container, width: container.info.width,
                                                    height: container.info.height),
                            info: container.info, warnings: [])
    }

    /// Reads the header and the ICC and EXIF chunks with seeks, wherever they are in the file.
    public func probe(fileAt path: String) throws(TesseraError) -> ImageInfo {
        try WebPFileLayout(file: OpenFile(path: path)).info
    }

    /// Streams a still's rows; `scaleDenominator` may be any whole factor (each side divided by
    /// it, rounded down, at least 1). Animations are refused: their frames are composited whole.
    public func openRows(_ input: CodecInput, scaleDenominator: Int,
                         options: DecodeOptions) throws(TesseraError) -> any RowReader {
        let info: ImageInfo, end: Int
        switch input.storage {
        case .file(let file):
            let layout = try WebPFileLayout(file: file)
            (info, end) = (layout.info, layout.riffEnd)
        case .bytes(let source):
            (info, end) = (try WebPContainer(source).info, source.count)
        }
        try options.check(info, path: input.path)
        guard info.frameCount == 1 else {
            throw TesseraError(.configuration, file: input.path, origin: .decode,
                               reason: "an animated WebP cannot be streamed by rows; decode its frames")
        }
        let factor = max(1, scaleDenominator)
        return try WebPRowReader(input, info: info, end: end,
                                 width: max(1, info.width / factor), height: max(1, info.height / factor))
    }

    /// Decodes a still WebP directly at a smaller size with libwebp's built-in scaling (shrink-on-load).
    public func decode(_ source: SourceBytes, scaledTo width: Int, height: Int,
                       options: DecodeOptions) throws(TesseraError) -> DecodedImage {
        let container = try WebPContainer(source)
        try options.check(container.info, path: source.path)
        guard container.info.frameCount == 1 else { return try decode(source, options: options) }
        return DecodedImage(bitmap: try decodeStill(container, width: width, height: height), info: container.info,
                            warnings: [])
    }

    /// Decodes a still at `width`×`height`; a smaller size uses libwebp's built-in scaling while decoding.
    func decodeStill(_ container: WebPContainer, width: Int, height: Int) throws(TesseraError) -> Bitmap {
        var bitmap = try Bitmap.unfilled(width: width, height: height, format: .rgba8,
                                alpha: container.info.hasAlpha ? .straight : .opaque,
                                colorSpace: container.info.colorSpace)
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw container.failure("libwebp version mismatch") }
        if width != container.info.width || height != container.info.height {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(width)
            config.options.scaled_height = Int32(height)
        }
        // libwebp's threads split the in-loop filtering; the pixels do not depend on them.
        config.options.use_threads = 1
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1
        let stride = bitmap.rowStride
        let status = bitmap.pixels.withUnsafeMutableBufferPointer { buffer -> VP8StatusCode in
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(stride)
            config.output.u.RGBA.size = buffer.count
            return WebPDecode(container.source.pointer, container.source.count, &config)
        }
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw container.failure(WebPContainer.describe(status)) }
        return bitmap
    }
}

/// A parsed WebP file: features from the bitstream, chunks from the container.
final class WebPContainer {
    let source: SourceBytes
    let info: ImageInfo
    /// The file's raw ANMF durations and flags, in file order (empty for stills).
    let frames: [WebPFrameRecord]

    struct WebPFrameRecord {
        let durationMs: Int
        let x: Int, y: Int, width: Int, height: Int
        let disposeToBackground: Bool
        let blends: Bool
    }

    init(_ source: SourceBytes) throws(TesseraError) {
        self.source = source
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(source.pointer, source.count, &features)
        guard status == VP8_STATUS_OK else {
            throw TesseraError(.invalidInput, file: source.path, origin: .decode,
                               reason: "WebP: \(Self.describe(status))")
        }
        var data = WebPData(bytes: source.pointer, size: source.count)
        guard let demux = WebPDemux(&data) else {
            throw TesseraError(.invalidInput, file: source.path, origin: .decode,
                               reason: "WebP: the RIFF container is malformed or truncated")
        }
        defer { WebPDemuxDelete(demux) }
        func chunk(_ name: String) -> [UInt8]? {
            var iterator = WebPChunkIterator()
            guard WebPDemuxGetChunk(demux, name, 1, &iterator) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&iterator) }
            return Array(UnsafeBufferPointer(start: iterator.chunk.bytes, count: iterator.chunk.size))
        }
        let icc = chunk("ICCP")
        let frameCount = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
        var records: [WebPFrameRecord] = []
        if features.has_animation != 0 {
            var iterator = WebPIterator()
            if WebPDemuxGetFrame(demux, 1, &iterator) != 0 {
                repeat {
                    records.append(WebPFrameRecord(
                        durationMs: Int(iterator.duration), x: Int(iterator.x_offset), y: Int(iterator.y_offset),
                        width: Int(iterator.width), height: Int(iterator.height),
                        disposeToBackground: iterator.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND,
                        blends: iterator.blend_method == WEBP_MUX_BLEND))
                } while WebPDemuxNextFrame(&iterator) != 0
                WebPDemuxReleaseIterator(&iterator)
            }
        }
        frames = records
        info = Self.makeInfo(width: Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)),
                             height: Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT)),
                             bitstream: WebPBitstream(libwebpFormat: features.format), hasAlpha: features.has_alpha != 0,
                             frameCount: max(1, frameCount),
                             loopCount: features.has_animation != 0 ? Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT)) : nil,
                             icc: icc, exif: chunk("EXIF"))
    }

    /// The header facts as Tessera reports them, whether read by libwebp's demuxer from the
    /// bytes or by `WebPFileLayout` from the file.
    static func makeInfo(width: Int, height: Int, bitstream: WebPBitstream, hasAlpha: Bool, frameCount: Int,
                         loopCount: Int?, icc: [UInt8]?, exif: [UInt8]?) -> ImageInfo {
        var info = ImageInfo(format: .webp, width: width, height: height, bitDepth: 8,
                             colorModel: bitstream.rawValue + (hasAlpha ? "+alpha" : ""),
                             hasAlpha: hasAlpha, needsWholeImage: true, frameCount: frameCount,
                             colorSpace: icc.map(ICCProfile.colorSpace(of:)) ?? .unspecified, iccProfile: icc)
        info.webpBitstream = bitstream
        info.loopCount = loopCount
        if let exif, let orientation = ExifOrientation.read(exif) { info.orientation = orientation }
        // A lossless bitstream is decoded into libwebp's own whole-image ARGB buffer, even when streamed.
        if bitstream == .lossless { info.decoderBufferBytes = width * height * 4 }
        return info
    }

    func failure(_ text: String) -> TesseraError {
        TesseraError(.invalidInput, file: source.path, origin: .decode, reason: "WebP: \(text)")
    }

    static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "corrupt bitstream"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
        case VP8_STATUS_SUSPENDED: "decoding suspended"
        case VP8_STATUS_USER_ABORT: "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: "not enough data (the file is truncated)"
        default: "error \(status.rawValue)"
        }
    }
}
