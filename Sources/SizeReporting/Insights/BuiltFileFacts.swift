import Delivery
import TesseraCore

/// What the manifest says of each built file a device can get, by its path under the output
/// folder: its content hash and bytes, and for a raster variant its format and pixels.
struct BuiltFileFacts {
    struct Facts {
        var sha256: ContentHash
        var bytes: Int
        /// nil for what is not a variant (a ready bitmap, a preserved vector, a data item).
        var format: ImageFormat?
        var pixels: Int
        /// Made from an app icon set (`.appiconset`, Icon Composer's `.icon`, a layered icon's
        /// image stack), which must stay PNG.
        var appIcon = false
    }

    private var facts: [String: Facts] = [:]

    init(_ manifest: Manifest) {
        for asset in manifest.assets {
            for variant in asset.variants {
                facts[variant.path] = Facts(sha256: variant.sha256, bytes: variant.bytes, format: variant.format,
                                            pixels: variant.width * variant.height, appIcon: Self.isAppIcon(variant.source))
                if let bitmap = variant.readyBitmap {
                    facts[bitmap.path] = Facts(sha256: bitmap.sha256, bytes: bitmap.bytes, format: nil, pixels: 0)
                }
            }
            if let vector = asset.vector {
                facts[vector.path] = Facts(sha256: vector.sha256, bytes: vector.bytes, format: nil, pixels: 0)
            }
        }
        for item in manifest.data + (manifest.app ?? []) where facts[item.path] == nil {
            facts[item.path] = Facts(sha256: item.sha256, bytes: item.bytes, format: nil, pixels: 0)
        }
    }

    subscript(path: String) -> Facts? { facts[path] }

    /// Whether a variant's source (its path in the input) lies in an app icon's folder.
    static func isAppIcon(_ source: String) -> Bool {
        source.split(separator: "/").dropLast().contains { folder in
            [".appiconset", ".icon", ".imagestack", ".solidimagestack", ".brandassets"].contains { folder.hasSuffix($0) }
        }
    }
}
