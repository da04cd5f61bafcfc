/// How a WebP file's image data is coded (libwebp's `WebPBitstreamFeatures.format`).
///
/// The build keeps variants of a lossless master lossless, so this is read from the header
/// rather than guessed from the colour model's spelling.
public enum WebPBitstream: String, Sendable, Hashable, CaseIterable {
    case lossy
    case lossless
    /// Animations whose frames differ, or files libwebp cannot classify from the first frame.
    case mixed

    /// libwebp's code: 1 lossy, 2 lossless, 0 mixed or undefined.
    init(libwebpFormat format: Int32) {
        self = switch format { case 1: .lossy; case 2: .lossless; default: .mixed }
    }
}
