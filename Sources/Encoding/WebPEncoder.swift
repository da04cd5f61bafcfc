import CWebP
import TesseraCore

/// WebP through libwebp: lossy with a quality, or lossless. An ICC profile is added as an ICCP
/// chunk with libwebpmux. Single-threaded, so the bytes never depend on thread timing.
public struct WebPEncoder: ImageEncoder, Codable, Hashable {
    /// 0–100; for lossless it trades encoding time for size.
    public var quality: Int
    public var lossless: Bool
    /// 0 (fast) – 6 (slowest, smallest).
    public var method: Int

    public init(quality: Int = 80, lossless: Bool = false, method: Int = 4) {
        self.quality = min(100, max(0, quality))
        self.lossless = lossless
        self.method = min(6, max(0, method))
    }

    public var format: ImageFormat { .webp }


    public func encode(_ bitmap: Bitmap, iccProfile: [UInt8]?) throws(TesseraError) -> [UInt8] {
        let rgba = PixelPacking.straightRGBA(bitmap)
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw failure("libwebp version mismatch") }
        config.quality = Float(quality)
        config.lossless = lossless ? 1 : 0
        config.method = Int32(method)
        config.thread_level = 0
        // Lossless keeps the colour of fully transparent pixels, so decode(encode(x)) == x exactly.
        config.exact = lossless ? 1 : 0
        guard WebPValidateConfig(&config) != 0 else { throw failure("invalid encoder settings") }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw failure("libwebp version mismatch") }
        defer { WebPPictureFree(&picture) }
        picture.width = Int32(bitmap.width)
        picture.height = Int32(bitmap.height)
        picture.use_argb = lossless ? 1 : 0
        let imported = rgba.withUnsafeBufferPointer {
            WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(bitmap.width * 4))
        }
        guard imported != 0 else { throw failure("out of memory importing \(bitmap.width)×\(bitmap.height) pixels") }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        picture.writer = WebPMemoryWrite
        let encoded = withUnsafeMutablePointer(to: &writer) { pointer in
            picture.custom_ptr = UnsafeMutableRawPointer(pointer)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0 else { throw failure("encoding failed (error \(picture.error_code.rawValue))") }
        let bitstream = Array(UnsafeBufferPointer(start: writer.mem, count: writer.size))
        guard let iccProfile, !iccProfile.isEmpty else { return bitstream }
        return try Self.addingICC(iccProfile, to: bitstream)
    }

    /// Wraps a WebP bitstream in an extended (VP8X) container with an ICCP chunk.
    static func addingICC(_ icc: [UInt8], to bitstream: [UInt8]) throws(TesseraError) -> [UInt8] {
        guard let mux = WebPMuxNew() else { throw failure("cannot create a WebP container") }
        defer { WebPMuxDelete(mux) }
        var output = WebPData()
        let status = bitstream.withUnsafeBufferPointer { image in
            icc.withUnsafeBufferPointer { profile -> WebPMuxError in
                var imageData = WebPData(bytes: image.baseAddress, size: image.count)
                var profileData = WebPData(bytes: profile.baseAddress, size: profile.count)
                let set = WebPMuxSetImage(mux, &imageData, 1)
                guard set == WEBP_MUX_OK else { return set }
                let chunk = WebPMuxSetChunk(mux, "ICCP", &profileData, 1)
                guard chunk == WEBP_MUX_OK else { return chunk }
                return WebPMuxAssemble(mux, &output)
            }
        }
        defer { WebPDataClear(&output) }
        guard status == WEBP_MUX_OK else { throw failure("cannot add the ICC profile (mux error \(status.rawValue))") }
        return Array(UnsafeBufferPointer(start: output.bytes, count: output.size))
    }

    private func failure(_ text: String) -> TesseraError { Self.failure(text) }

    private static func failure(_ text: String) -> TesseraError {
        TesseraError(.internalFailure, origin: .encode, reason: "WebP: \(text)")
    }
}
