import Decoding
import Downscaling
import Encoding
import SizeReporting
import TesseraCore

/// The size report's thumbnails: a built variant decoded, shrunk to fit `side` pixels and encoded
/// as a small lossy WebP (alpha kept), which every current browser shows.
public struct VariantThumbnails: ThumbnailMaking {
    public let side: Int

    /// 64 pixels: sharp at 32 CSS pixels on a 2x screen, about 1–3 KB each.
    public init(side: Int = 64) {
        self.side = side
    }

    public func thumbnail(ofFile path: String) -> ReportThumbnail? {
        do {
            let image = try ImageDecoders.decode(try SourceBytes(contentsOfFile: path))
            let bitmap = image.bitmap
            let fit = DownscaleTarget.fit(width: side, height: side).size(forWidth: bitmap.width, height: bitmap.height)
            let small = (fit.width, fit.height) == (bitmap.width, bitmap.height)
                ? bitmap : try Resampler(filter: .lanczos3).resize(bitmap, width: fit.width, height: fit.height)
            return ReportThumbnail(mediaType: "image/webp",
                                   bytes: try WebPEncoder(quality: 70, method: 4).encode(small, iccProfile: nil))
        } catch {
            return nil
        }
    }
}
