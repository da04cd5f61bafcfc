import CCodecGuards
import TesseraCore

/// PNG through libpng: every colour type and bit depth, tRNS, 16-bit scaled to 8 with rounding, Adam7.
/// Non-interlaced 8- and 16-bit gray, gray+alpha, RGB and RGBA images (masters) have their image
/// data read by `PNGRowReader` (ISA-L's inflate, or zlib's without the FastInflate trait), with the
/// same pixels, after libpng read the header.
public struct PNGDecoder: RowStreamingDecoder {
    /// Who reads the image data of the images `PNGRowReader` covers.
    public enum ImageDataReader: Sendable {
        #if FastInflate
        /// `PNGRowReader`, through ISA-L: the default where the build has it (the FastInflate trait).
        case isal
        #endif
        /// `PNGRowReader`, through zlib's inflate: the default of a build without ISA-L (the static
        /// worker, scripts/build-static-worker.sh); the same pixels.
        case zlib
        /// libpng for every image: the reference the tests compare with.
        case libpng

        /// `PNGRowReader` through ISA-L when the build has it, else through zlib.
        public static var fastest: ImageDataReader {
            #if FastInflate
            return .isal
            #else
            return .zlib
            #endif
        }
    }

    public let imageDataReader: ImageDataReader

    /// The library that inflates masters' image data (ISA-L, or zlib in a build without the
    /// FastInflate trait), for `tessera version`.
    public static var inflaterVersion: String { PNGInflater.Implementation.fastest.version }

    public init(imageDataReader: ImageDataReader = .fastest) {
        self.imageDataReader = imageDataReader
    }

    public var format: ImageFormat { .png }

    public func probe(_ source: SourceBytes) throws(TesseraError) -> ImageInfo {
        try PNGSession(source).info
    }

    public func decode(_ source: SourceBytes, options: DecodeOptions) throws(TesseraError) -> DecodedImage {
        let session = try PNGSession(source)
        try options.check(session.info, path: source.path)
        guard session.info.needsWholeImage else { return try decodeByStreaming(source, options: options) }
        // Adam7 passes revisit every row, so the image is decoded whole.
        try session.startRGBA8()
        var bitmap = try Bitmap.unfilled(width: session.info.width, height: session.info.height, format: .rgba8,
                                alpha: session.info.hasAlpha ? .straight : .opaque,
                                colorSpace: session.info.colorSpace)
        let stride = bitmap.rowStride
        var message = CodecMessage()
        let status = bitmap.pixels.withUnsafeMutableBytes { buffer in
            message.withPointer {
                tessera_png_read_image(session.reader, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                       stride, $0)
            }
        }
        guard status == 0 else { throw session.failure(message.text) }
        try session.finish()
        return DecodedImage(bitmap: bitmap, info: session.info, warnings: session.warnings)
    }

    public func probe(fileAt path: String) throws(TesseraError) -> ImageInfo {
        try PNGSession(.file(at: path)).info
    }

    public func openRows(_ source: CodecInput, scaleDenominator: Int,
                         options: DecodeOptions) throws(TesseraError) -> any RowReader {
        guard scaleDenominator == 1 else {
            throw TesseraError(.configuration, file: source.path, origin: .decode,
                               reason: "PNG has no shrink-on-load; scale 1/\(scaleDenominator) is not available")
        }
        let session = try PNGSession(source)
        try options.check(session.info, path: source.path)
        guard !session.info.needsWholeImage else {
            throw TesseraError(.configuration, file: source.path, origin: .decode,
                               reason: "an interlaced PNG cannot be streamed by rows; decode it whole")
        }
        if let implementation = imageDataReader.inflater, let reader = PNGRowReader(session, inflatingWith: implementation) {
            return reader
        }
        try session.startRGBA8()
        return session
    }
}

/// One libpng read session; closes the reader when released.
final class PNGSession: RowReader {
    let input: CodecInput
    let reader: OpaquePointer
    private let rawInfo: UnsafeMutablePointer<tessera_png_info>
    let info: ImageInfo
    private(set) var rowsRead = 0

    convenience init(_ source: SourceBytes) throws(TesseraError) {
        try self.init(.bytes(source))
    }

    init(_ input: CodecInput) throws(TesseraError) {
        self.input = input
        let rawInfo = UnsafeMutablePointer<tessera_png_info>.allocate(capacity: 1)
        self.rawInfo = rawInfo
        var handle: OpaquePointer?
        var message = CodecMessage()
        let status = message.withPointer { text in
            input.withArguments { tessera_png_open($0, $1, $2, &handle, rawInfo, text) }
        }
        guard status == 0, let handle else {
            rawInfo.deallocate()
            throw TesseraError(.invalidInput, file: input.path, origin: .decode, reason: "PNG: \(message.text)")
        }
        reader = handle
        let raw = rawInfo.pointee
        let icc = raw.icc.map { Array(UnsafeBufferPointer(start: $0, count: raw.icc_length)) }
        let colorSpace: ColorSpace = if let icc { ICCProfile.colorSpace(of: icc) }
            else if raw.has_srgb_chunk != 0 { .sRGB } else { .unspecified }
        let models = [0: "gray", 2: "rgb", 3: "palette", 4: "gray+alpha", 6: "rgba"]
        var info: ImageInfo
        info = ImageInfo(format: .png, width: Int(raw.width), height: Int(raw.height), bitDepth: Int(raw.bit_depth),
                         colorModel: models[Int(raw.color_type)] ?? "unknown", hasAlpha: raw.has_transparency != 0,
                         needsWholeImage: raw.interlaced != 0, frameCount: 1, colorSpace: colorSpace,
                         iccProfile: icc)
        if let exif = raw.exif, let orientation = ExifOrientation.read(Array(UnsafeBufferPointer(start: exif, count: raw.exif_length))) {
            info.orientation = orientation
        }
        self.info = info
    }

    deinit {
        tessera_png_close(reader)
        rawInfo.deallocate()
    }

    var width: Int { info.width }
    var height: Int { info.height }

    var alpha: AlphaMode { info.hasAlpha ? .straight : .opaque }
    var colorSpace: ColorSpace { info.colorSpace }

    var warnings: [String] {
        codecWarnings(count: rawInfo.pointee.warning_count, first: rawInfo.pointee.first_warning)
    }

    func failure(_ text: String) -> TesseraError {
        TesseraError(.invalidInput, file: input.path, origin: .decode, reason: "PNG: \(text)")
    }

    func startRGBA8() throws(TesseraError) {
        var message = CodecMessage()
        let status = message.withPointer { tessera_png_start_rgba8(reader, $0) }
        guard status == 0 else { throw failure(message.text) }
    }

    func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, count: Int) throws(TesseraError) -> Int {
        let wanted = min(count, height - rowsRead)
        guard wanted > 0 else { return 0 }
        precondition(buffer.count >= (wanted - 1) * stride + width * 4, "row buffer too small")
        var message = CodecMessage()
        let status = message.withPointer {
            tessera_png_read_rows(reader, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), stride,
                                  UInt32(wanted), $0)
        }
        guard status == 0 else { throw failure(message.text) }
        rowsRead += wanted
        return wanted
    }

    func finish() throws(TesseraError) {
        var message = CodecMessage()
        let status = message.withPointer { tessera_png_finish(reader, $0) }
        guard status == 0 else { throw failure(message.text) }
    }
}

extension PNGDecoder.ImageDataReader {
    /// The inflater `PNGRowReader` uses; nil for libpng.
    var inflater: PNGInflater.Implementation? {
        switch self {
        #if FastInflate
        case .isal: return .isal
        #endif
        case .zlib: return .zlib
        case .libpng: return nil
        }
    }
}
