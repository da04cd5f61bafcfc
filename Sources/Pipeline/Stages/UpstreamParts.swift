import Decoding
import JobEngine
import Slicing
import TesseraCore

/// Where a later stage gets a variant's upright pixels: a full decode or render (`Upstream(job)`),
/// or one scale of a downscale pass.
extension Upstream where Value == DecodedSource {
    static func scaled(_ pass: JobRef<ScaledVariants>, _ scale: DisplayScale) -> Upstream {
        Upstream(pass, part: "image \(scale)") { $0.images[scale] }
    }
}

/// Where a write job gets its file: an encode job (`Upstream(job)`), one scale a downscale pass
/// encoded, or one scale of an animation pass.
extension Upstream where Value == EncodedVariant {
    static func downscaled(_ pass: JobRef<ScaledVariants>, _ scale: DisplayScale) -> Upstream {
        Upstream(pass, part: "file \(scale)") { $0.encoded[scale] }
    }

    static func animated(_ pass: JobRef<AnimatedVariants>, _ scale: DisplayScale) -> Upstream {
        Upstream(pass, part: "animation \(scale)") { $0.variants[scale] }
    }
}

/// The pass over a provided file that shows it is a valid image before it is copied.
///
/// A downscale of the same file decodes every row of it anyway (PNG to its end chunk, JPEG's
/// whole entropy-coded data, even when the DCT scales), so when the asset's smaller scales are
/// made from this file the copy waits on that pass instead of decoding the file a second time.
extension Upstream where Value == MasterFacts {
    /// A full decode of the file.
    static func decoded(_ job: JobRef<DecodedSource>) -> Upstream {
        Upstream(job, part: "master") { decoded in
            MasterFacts(info: decoded.image.info, width: decoded.image.bitmap.width, height: decoded.image.bitmap.height,
                        warnings: decoded.image.warnings)
        }
    }

    /// The downscale pass made from the file.
    static func downscaled(_ pass: JobRef<ScaledVariants>) -> Upstream {
        Upstream(pass, part: "master") { $0.master }
    }
}
