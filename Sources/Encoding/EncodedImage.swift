import TesseraCore

/// A file an encoder made, with its pixel size and what the encoder noted about it (an option it
/// could not honour).
public struct EncodedImage: Sendable {
    public let bytes: [UInt8]
    public let width: Int
    public let height: Int
    public let notes: [String]

    public init(bytes: [UInt8], width: Int, height: Int, notes: [String]) {
        self.bytes = bytes
        self.width = width
        self.height = height
        self.notes = notes
    }
}

extension ImageEncoder {
    /// `bitmap`'s file, carrying `iccProfile` so that colours mean the same in every variant.
    public func encodedImage(_ bitmap: Bitmap, iccProfile: [UInt8]?) throws(TesseraError) -> EncodedImage {
        var notes: [String] = []
        let bytes = try encode(bitmap, iccProfile: iccProfile, notes: &notes)
        return EncodedImage(bytes: bytes, width: bitmap.width, height: bitmap.height, notes: notes)
    }
}
