import Delivery
import Foundation
import TesseraCore

/// Writes one bundle entry as `objects/<sha256>` in its transfer form (`TransferObject`):
/// the xz payload the compress stage made when it made one, ready bitmaps xz-compressed when that
/// pays (a bundle stores them as they are, for apps to map, but a download is decoded into place
/// anyway, and pixels compress well), anything else as it is.
///
/// Written atomically (a temporary file renamed into place) and from the contents alone, so two
/// runs write the same bytes and a reader never sees part of an object.
public struct ObjectWriter: Sendable {
    public let compressor: PayloadCompressor
    /// The build's output folder; objects go under `objects/`.
    public let outputFolder: String

    public init(compressor: PayloadCompressor, outputFolder: String) {
        self.compressor = compressor
        self.outputFolder = outputFolder
    }

    /// Writes the object of the built file at `path` (relative to the output folder), an entry of
    /// `kind`; `prepared` is the compress stage's payload for it, when it made one.
    public func write(file path: String, kind: BundleRecord.Kind, prepared: PreparedPayload?) throws(TesseraError) -> TransferObject {
        if let prepared, prepared.compression == .xz {
            return try place(prepared.stored, sha256: prepared.sha256, bytes: prepared.uncompressedSize, encoding: .xz)
        }
        let location = "\(outputFolder)/\(path)"
        guard let data = FileManager.default.contents(atPath: location) else {
            throw TesseraError(.io, file: location, origin: .object, reason: "cannot read a built file")
        }
        let contents = [UInt8](data)
        let sha256 = ContentHash.of(contents)
        // Asked as data: the compressor never compresses a ready bitmap for a bundle.
        if kind == .readyBitmap, let xz = try compressor.compressIfItPays(contents, kind: .data, name: path) {
            return try place(xz, sha256: sha256, bytes: contents.count, encoding: .xz)
        }
        return try place(contents, sha256: sha256, bytes: contents.count, encoding: .identity)
    }

    private func place(_ transfer: [UInt8], sha256: ContentHash, bytes: Int,
                       encoding: TransferEncoding) throws(TesseraError) -> TransferObject {
        let object = TransferObject(sha256: sha256, bytes: bytes, encoding: encoding, transferBytes: transfer.count)
        // Unflushed, as variants are: the manifest job flushes the files written (`DurableWrites`)
        // before the manifest naming them appears.
        try AtomicFile.write(transfer, to: "\(outputFolder)/\(object.path)", flushing: false)
        return object
    }
}
