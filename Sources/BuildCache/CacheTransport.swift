import TesseraCore

/// How a remote cache's bytes move: the protocol a server speaks (`BazelHTTPTransport`, or the
/// Remote Execution API over gRPC in the RemoteAPI module), and nothing else.
///
/// `RemoteCache` keeps all the policy over it: when a server is left alone, the one warning,
/// entry authentication, what goes inline, packs, request counting, and checking every blob
/// against its hash. A transport answers each call with what the server said, an absent
/// resource as nil or false, and anything else that went wrong as a `TransportFailure`.
/// Calls come from plain worker threads and may block them; they must not need Swift's
/// cooperative pool to finish (a caller may be one of its threads).
package protocol CacheTransport: Sendable {
    /// The server, as warnings name it (`https://cache.example/tessera`, `grpc://host:port`).
    var address: String { get }

    /// A resource's name in warnings, from its `CacheResource.path`.
    func describe(_ path: String) -> String

    /// Why the server cannot be used at all (it cannot be reached, or refuses what a Tessera cache
    /// needs), as the warning's text; nil when it can. Asked once, before the first request, so a
    /// dead server is one immediate warning rather than a timeout per lookup.
    func problem(timeout: Double) -> String?

    /// Blobs larger than this are stored only after asking whether the server has them (asking
    /// costs a round trip of its own).
    var storesWithoutAsking: Int { get }

    /// The bytes of `resource` (at most `limit`; a blob's limit is its size), nil when absent.
    func read(_ resource: CacheResource, limit: Int) throws(TransportFailure) -> [UInt8]?

    /// Whether the server has `resource`.
    func contains(_ resource: CacheResource) throws(TransportFailure) -> Bool

    /// Stores `body` as `resource`; false (and no request sent) when `body` names a file that
    /// cannot be read or does not have its expected size or hash.
    func write(_ resource: CacheResource, _ body: BlobBody) throws(TransportFailure) -> Bool

    /// Streams the blob into the open file `descriptor`; nil when the server does not have it.
    func download(_ hash: ContentHash, size: Int, into descriptor: Int32) throws(TransportFailure) -> BlobReceipt?

    /// Streams a pack's segment (a blob of `receiver.size` bytes) into `receiver`; nil when the
    /// server does not have it.
    func receive(_ segment: ContentHash, into receiver: SegmentReceiver) throws(TransportFailure) -> SegmentReceiver.Outcome?
}

/// What a transport stores: bytes in memory, or a file's (read as the transport needs: whole
/// for an HTTP PUT, in pieces for a ByteStream write).
package enum BlobBody: Sendable {
    case bytes([UInt8])
    /// The file must have `size` bytes and, unless `hash` is nil (this run hashed the very file
    /// already), that SHA-256.
    case file(String, size: Int, hash: ContentHash?)
}

/// A blob streamed into a file: what it hashed to and how long it was, and whether every byte
/// could be written.
package struct BlobReceipt: Sendable {
    package var hash: ContentHash
    package var size: Int
    package var written: Bool

    package init(hash: ContentHash, size: Int, written: Bool) {
        self.hash = hash
        self.size = size
        self.written = written
    }
}
