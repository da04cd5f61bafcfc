import Delivery
import TesseraCore

extension BlobStore {
    /// Stores an object (`TransferObject`) in its transfer form under `digest`, the SHA-256 of its
    /// decoded contents, after checking that its bytes decode (`encoding`) to exactly `bytes`
    /// bytes hashing to it: a device decoding what is served under the name gets the bytes the
    /// signed manifest names. The first upload of a name stays (objects are content-addressed:
    /// another build's xz of the same contents decodes to the same bytes).
    public func putObject(_ transfer: [UInt8], as digest: ContentHash, encoding: TransferEncoding,
                          bytes: Int) throws(TesseraError) {
        let decoded: [UInt8]
        switch encoding {
        case .identity: decoded = transfer
        case .xz: decoded = try XZ.decompress(transfer, expectedSize: bytes)
        }
        guard decoded.count == bytes, ContentHash.of(decoded) == digest else {
            throw TesseraError(.invalidInput, file: digest.hex, origin: .store,
                               reason: "the uploaded object does not decode (\(encoding.rawValue)) to \(bytes) bytes hashing to its name")
        }
        if contains(digest) { return }
        try AtomicFile.write(transfer, to: path(of: digest))
    }
}
