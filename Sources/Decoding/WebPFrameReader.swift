import CWebP
import TesseraCore

/// Streams an animated WebP's frames through libwebp's WebPAnimDecoder, which applies each
/// frame's blend and dispose flags onto one canvas.
final class WebPFrameReader: AnimationFrameReader {
    private let container: WebPContainer
    private let decoder: OpaquePointer
    private var nextIndex = 0
    let info: ImageInfo
    private(set) var truncation: String?

    init(_ container: WebPContainer, options: DecodeOptions) throws(TesseraError) {
        self.container = container
        info = container.info
        try options.check(info, path: container.source.path)
        var decoderOptions = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&decoderOptions) != 0 else { throw container.failure("libwebp version mismatch") }
        decoderOptions.color_mode = MODE_RGBA
        decoderOptions.use_threads = 0
        var data = WebPData(bytes: container.source.pointer, size: container.source.count)
        guard let decoder = WebPAnimDecoderNew(&data, &decoderOptions) else {
            throw container.failure("cannot start the animation decoder (corrupt or truncated file)")
        }
        self.decoder = decoder
    }

    deinit { WebPAnimDecoderDelete(decoder) }

    func nextFrame() throws(TesseraError) -> AnimationFrame? {
        guard truncation == nil, WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var buffer: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
            truncation = "frame \(nextIndex + 1) could not be decoded (corrupt or truncated data)"
            if nextIndex == 0 { throw container.failure(truncation!) }
            return nil
        }
        let count = info.width * info.height * 4
        let canvas = try Bitmap(width: info.width, height: info.height, format: .rgba8,
                                alpha: info.hasAlpha ? .straight : .opaque, colorSpace: info.colorSpace,
                                pixels: Array(UnsafeBufferPointer(start: buffer, count: count)))
        let index = nextIndex
        nextIndex += 1
        let record = index < container.frames.count ? container.frames[index] : nil
        return AnimationFrame(index: index, canvas: canvas, rawDelay: record?.durationMs ?? 0,
                              delayMs: record?.durationMs ?? 0,
                              disposal: record?.disposeToBackground == true ? "background" : "none",
                              x: record?.x ?? 0, y: record?.y ?? 0, width: record?.width ?? info.width,
                              height: record?.height ?? info.height)
    }
}
