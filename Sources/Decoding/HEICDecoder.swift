import CHEIF
import TesseraCore

/// HEIC/HEIF stills through libheif (HEVC through libde265), which is loaded at the first HEIC
/// file (Shims/CHEIF): the primary image, with its
/// rotation and mirroring applied as the file's `irot`/`imir` boxes say (HEIF makes those
/// authoritative, so the EXIF orientation is not applied again), its alpha and its ICC profile.
///
/// The same guards as the other decoders: the pixel limit is checked from the header before
/// anything is decoded, and libheif's own width limit is set from it, so a hostile file cannot
/// make libheif allocate more than the limit allows.
public struct HEICDecoder: ImageDecoder {
    public init() {}

    public var format: ImageFormat { .heic }

    public func probe(_ source: SourceBytes) throws(TesseraError) -> ImageInfo {
        try HEIFFile(source, maxPixels: DecodeOptions.defaultMaxPixels).info
    }

    public func decode(_ source: SourceBytes, options: DecodeOptions) throws(TesseraError) -> DecodedImage {
        let file = try HEIFFile(source, maxPixels: options.maxPixels)
        try options.check(file.info, path: source.path)
        try options.checkpoint()
        let bitmap = try file.decode()
        return DecodedImage(bitmap: bitmap, info: file.info, orientationApplied: true, warnings: [])
    }
}

/// One open HEIF file: libheif's context and its primary image's handle, freed on deinit.
private final class HEIFFile {
    private let context: OpaquePointer
    private let handle: OpaquePointer
    private let path: String
    /// The bytes libheif reads without copying: kept alive as long as the context.
    private let source: SourceBytes
    let info: ImageInfo

    init(_ source: SourceBytes, maxPixels: Int) throws(TesseraError) {
        path = source.path
        self.source = source
        var message = [CChar](repeating: 0, count: 256)
        guard tessera_heif_load(&message, message.count) != 0 else {
            throw TesseraError(.configuration, file: source.path, origin: .decode,
                               reason: "HEIC: " + String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let context = tessera_heif_context_alloc() else {
            throw TesseraError(.internalFailure, file: source.path, origin: .decode, reason: "libheif could not allocate a context")
        }
        // A side longer than the pixel limit's square side could still fit the limit (a thin
        // strip); the exact area is checked below, before decoding.
        tessera_heif_context_set_maximum_image_size_limit(context, Int32(min(max(1, maxPixels), 32_768)))
        var error = tessera_heif_context_read_from_memory_without_copy(context, source.pointer, source.count, nil)
        guard error.code == heif_error_Ok else {
            tessera_heif_context_free(context)
            throw Self.failure(error, path: source.path, doing: "reading the file")
        }
        var primary: OpaquePointer?
        error = tessera_heif_context_get_primary_image_handle(context, &primary)
        guard error.code == heif_error_Ok, let primary else {
            tessera_heif_context_free(context)
            throw Self.failure(error, path: source.path, doing: "finding the primary image")
        }
        self.context = context
        handle = primary
        let width = Int(tessera_heif_image_handle_get_width(primary)), height = Int(tessera_heif_image_handle_get_height(primary))
        let alpha = tessera_heif_image_handle_has_alpha_channel(primary) != 0
        var profile: [UInt8]?
        let profileSize = tessera_heif_image_handle_get_raw_color_profile_size(primary)
        if profileSize > 0, profileSize < 16 << 20 {
            var bytes = [UInt8](repeating: 0, count: profileSize)
            let read = bytes.withUnsafeMutableBytes { tessera_heif_image_handle_get_raw_color_profile(primary, $0.baseAddress) }
            if read.code == heif_error_Ok { profile = bytes }
        }
        let bits = Int(tessera_heif_image_handle_get_luma_bits_per_pixel(primary))
        info = ImageInfo(format: .heic, width: width, height: height, bitDepth: bits > 0 ? bits : 8,
                         colorModel: alpha ? "ycbcr+alpha" : "ycbcr", hasAlpha: alpha, needsWholeImage: true,
                         frameCount: 1,
                         colorSpace: profile.map(ICCProfile.colorSpace(of:)) ?? .unspecified, iccProfile: profile)
    }

    deinit {
        tessera_heif_image_handle_release(handle)
        tessera_heif_context_free(context)
    }

    /// The primary image, upright, as 8-bit RGBA (straight alpha) or opaque RGBA.
    func decode() throws(TesseraError) -> Bitmap {
        var image: OpaquePointer?
        let error = tessera_heif_decode_image(handle, &image, heif_colorspace_RGB,
                                      info.hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, nil)
        guard error.code == heif_error_Ok, let image else { throw Self.failure(error, path: path, doing: "decoding") }
        defer { tessera_heif_image_release(image) }
        let width = Int(tessera_heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(tessera_heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width == info.width, height == info.height,
              let plane = tessera_heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw TesseraError(.invalidInput, file: path, origin: .decode,
                               reason: "HEIC: the decoded image is \(width)×\(height), not the \(info.width)×\(info.height) its header gives")
        }
        var bitmap = try Bitmap.unfilled(width: width, height: height, format: .rgba8,
                                         alpha: info.hasAlpha ? .straight : .opaque, colorSpace: info.colorSpace)
        let channels = info.hasAlpha ? 4 : 3
        bitmap.pixels.withUnsafeMutableBufferPointer { out in
            for y in 0 ..< height {
                let row = plane + y * Int(stride)
                let target = y * width * 4
                if channels == 4 {
                    (out.baseAddress! + target).update(from: row, count: width * 4)
                } else {
                    for x in 0 ..< width {
                        out[target + 4 * x] = row[3 * x]
                        out[target + 4 * x + 1] = row[3 * x + 1]
                        out[target + 4 * x + 2] = row[3 * x + 2]
                        out[target + 4 * x + 3] = 255
                    }
                }
            }
        }
        return bitmap
    }

    private static func failure(_ error: heif_error, path: String, doing what: String) -> TesseraError {
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        let kind: TesseraError.Kind = error.code == heif_error_Memory_allocation_error ? .limitExceeded : .invalidInput
        return TesseraError(kind, file: path, origin: .decode, reason: "HEIC: \(message) (\(what))")
    }
}
