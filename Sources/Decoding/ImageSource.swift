import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// An image file, probed the one way every caller (the build planner, `inspect`, the streaming
/// downscale, slice reports) shares: PNG, JPEG and WebP have their header read from the file, so
/// a huge master is never loaded just to plan, describe or shrink it; any other file is read whole
/// and probed from its bytes.
public struct ImageSource: Sendable {
    /// How the file's bytes are reached.
    public enum Reading: Sendable {
        /// Left on disk: the header was read with seeks, and rows can be streamed from the file.
        case fromFile(any RowStreamingDecoder)
        /// Read into memory.
        case whole(SourceBytes)
    }

    /// A decoder and what it read from the header.
    public struct Header: Sendable {
        public let decoder: any ImageDecoder
        public let info: ImageInfo
    }

    public let path: String
    /// The format its first bytes name; nil when they name none.
    public let format: ImageFormat?
    public let reading: Reading
    /// The file's size in bytes.
    public let fileSize: Int
    /// The header, or why it could not be read (not an image Tessera decodes, a damaged header).
    /// Kept apart from `init`'s errors because a planner still hashes a file it cannot probe: its
    /// decode fails later, as that asset's own failure.
    public let header: Result<Header, TesseraError>

    /// Probes the file at `path`; throws only when the file itself cannot be read.
    public init(fileAt path: String) throws(TesseraError) {
        self.path = path
        // An unreadable prefix falls through to the whole read, which names the I/O error.
        let sniffed = try? ImageDecoders.format(ofFileAt: path)
        if let format = sniffed,
           let streaming = ImageDecoders.decoder(for: format) as? any RowStreamingDecoder {
            self.format = format
            reading = .fromFile(streaming)
            // A plain `stat`: `attributesOfItem` also looks up the owner's and group's names.
            var status = stat()
            fileSize = stat(path, &status) == 0 ? Int(status.st_size) : 0
            header = Result { () throws(TesseraError) in
                Header(decoder: streaming, info: try streaming.probe(fileAt: path))
            }
            return
        }
        let bytes = try SourceBytes(contentsOfFile: path)
        format = sniffed ?? ImageFormat.sniff(bytes.prefix)
        reading = .whole(bytes)
        fileSize = bytes.count
        header = Result { () throws(TesseraError) in
            let decoder = try ImageDecoders.decoder(for: bytes)
            return Header(decoder: decoder, info: try decoder.probe(bytes))
        }
    }

    /// The row-streaming decoder, when the file is streamed and its layout allows it (not an
    /// Adam7 PNG, not an animated WebP).
    public var rowStreamer: (any RowStreamingDecoder)? {
        guard case .fromFile(let decoder) = reading, case .success(let header) = header,
              header.info.streamsByRows else { return nil }
        return decoder
    }

    /// The file's bytes: the ones already read, or the whole file read now.
    public func bytes() throws(TesseraError) -> SourceBytes {
        switch reading {
        case .whole(let bytes): bytes
        case .fromFile: try SourceBytes(contentsOfFile: path)
        }
    }

    /// SHA-256 of the file: from the bytes in memory, or read from disk in chunks.
    public func contentHash() throws(TesseraError) -> ContentHash {
        switch reading {
        case .whole(let bytes): bytes.contentHash
        case .fromFile: try ContentHash.ofFile(at: path)
        }
    }
}
