import CCodecGuards
import TesseraCore

/// JPEG through libjpeg-turbo: baseline and progressive, gray, YCbCr, CMYK and YCCK (Adobe's
/// inverted CMYK included), with DCT-domain shrink-on-load for streaming.
public struct JPEGDecoder: RowStreamingDecoder {
    public init() {}

    public var format: ImageFormat { .jpeg }

    public func probe(_ source: SourceBytes) throws(TesseraError) -> ImageInfo {
        try JPEGSession(source).info
    }

    public func decode(_ source: SourceBytes, options: DecodeOptions) throws(TesseraError) -> DecodedImage {
        // libjpeg keeps a progressive file's coefficients internally and still hands out rows in
        // order, so one path serves both; `needsWholeImage` tells the scheduler what it costs.
        try decodeByStreaming(source, options: options)
    }

    public func probe(fileAt path: String) throws(TesseraError) -> ImageInfo {
        try JPEGSession(.file(at: path)).info
    }

    public func openRows(_ source: CodecInput, scaleDenominator: Int,
                         options: DecodeOptions) throws(TesseraError) -> any RowReader {
        guard [1, 2, 4, 8].contains(scaleDenominator) else {
            throw TesseraError(.configuration, file: source.path, origin: .decode,
                               reason: "JPEG shrink-on-load takes 1, 2, 4 or 8, not \(scaleDenominator)")
        }
        let session = try JPEGSession(source)
        try options.check(session.info, path: source.path)
        try session.start(scaleDenominator: scaleDenominator)
        return session
    }
}

/// One libjpeg read session; destroys the decompressor when released.
final class JPEGSession: RowReader {
    let input: CodecInput
    private let reader: OpaquePointer
    private let rawInfo: UnsafeMutablePointer<tessera_jpeg_info>
    let info: ImageInfo
    private(set) var width = 0
    private(set) var height = 0
    private(set) var rowsRead = 0

    convenience init(_ source: SourceBytes) throws(TesseraError) {
        try self.init(.bytes(source))
    }

    init(_ input: CodecInput) throws(TesseraError) {
        self.input = input
        let rawInfo = UnsafeMutablePointer<tessera_jpeg_info>.allocate(capacity: 1)
        self.rawInfo = rawInfo
        var handle: OpaquePointer?
        var message = CodecMessage()
        let status = message.withPointer { text in
            input.withArguments { tessera_jpeg_open($0, $1, $2, &handle, rawInfo, text) }
        }
        guard status == 0, let handle else {
            rawInfo.deallocate()
            throw TesseraError(.invalidInput, file: input.path, origin: .decode, reason: "JPEG: \(message.text)")
        }
        reader = handle
        let raw = rawInfo.pointee
        let icc = raw.icc.map { Array(UnsafeBufferPointer(start: $0, count: raw.icc_length)) }
        // libjpeg's J_COLOR_SPACE: 1 gray, 2 RGB, 3 YCbCr, 4 CMYK, 5 YCCK.
        let models = [1: "gray", 2: "rgb", 3: "ycbcr", 4: "cmyk", 5: "ycck"]
        var info = ImageInfo(format: .jpeg, width: Int(raw.width), height: Int(raw.height), bitDepth: 8,
                         colorModel: models[Int(raw.color_space)] ?? "unknown", hasAlpha: false,
                         needsWholeImage: raw.progressive != 0, frameCount: 1,
                         colorSpace: icc.map(ICCProfile.colorSpace(of:)) ?? .unspecified, iccProfile: icc)
        if raw.progressive != 0 { info.decoderBufferBytes = Int(raw.coefficient_bytes) }
        if let exif = raw.exif, let orientation = ExifOrientation.read(Array(UnsafeBufferPointer(start: exif, count: raw.exif_length))) {
            info.orientation = orientation
        }
        self.info = info
    }

    deinit {
        tessera_jpeg_close(reader)
        rawInfo.deallocate()
    }

    var alpha: AlphaMode { info.hasAlpha ? .straight : .opaque }
    var colorSpace: ColorSpace { info.colorSpace }

    var warnings: [String] {
        codecWarnings(count: rawInfo.pointee.warning_count, first: rawInfo.pointee.first_warning)
    }

    private func failure(_ text: String) -> TesseraError {
        TesseraError(.invalidInput, file: input.path, origin: .decode, reason: "JPEG: \(text)")
    }

    func start(scaleDenominator: Int) throws(TesseraError) {
        var outputWidth: UInt32 = 0, outputHeight: UInt32 = 0
        var message = CodecMessage()
        let status = message.withPointer {
            tessera_jpeg_start_rgba8(reader, Int32(scaleDenominator), &outputWidth, &outputHeight, $0)
        }
        guard status == 0 else { throw failure(message.text) }
        width = Int(outputWidth)
        height = Int(outputHeight)
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(TesseraError) -> Int {
        let wanted = min(count, height - rowsRead)
        guard wanted > 0 else { return 0 }
        precondition(buffer.count >= (wanted - 1) * stride + width * 4, "row buffer too small")
        var message = CodecMessage()
        var filled: UInt32 = 0
        let status = message.withPointer {
            tessera_jpeg_read_rows(reader, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), stride,
                                   UInt32(wanted), &filled, $0)
        }
        guard status == 0 else { throw failure(message.text) }
        rowsRead += Int(filled)
        return Int(filled)
    }

    func finish() throws(TesseraError) {
        var message = CodecMessage()
        let status = message.withPointer { tessera_jpeg_finish(reader, $0) }
        guard status == 0 else { throw failure(message.text) }
    }
}
