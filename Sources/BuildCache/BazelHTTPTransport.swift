import Foundation
import NIOHTTP1
import TesseraCore

/// Bazel's HTTP remote-cache protocol: `GET/PUT/HEAD {base}/cas/<sha256>` for blobs and
/// `{base}/ac/<key>` for entries, over pooled keep-alive connections (`CacheServerClient`).
struct BazelHTTPTransport: CacheTransport {
    let base: URL
    private let client: CacheServerClient

    /// `authorization`: a whole `Authorization` header value; `headers`: more to send with every request.
    init(base: URL, authorization: String?, headers: [String: String] = [:], timeout: TimeInterval, connections: Int) {
        self.base = base
        client = CacheServerClient(timeout: timeout, connections: connections, authorization: authorization, headers: headers)
    }

    var address: String { base.absoluteString }

    func describe(_ path: String) -> String { url(path).absoluteString }

    private func url(_ path: String) -> URL { base.appendingPathComponent(path) }

    func problem(timeout: Double) -> String? {
        ServerProbe.problem(reaching: base, timeout: timeout).map { "connecting to \(base.absoluteString) failed (\($0))" }
    }

    /// A CAS PUT of bytes the server has is harmless, and asking costs about what sending 64 KiB does.
    var storesWithoutAsking: Int { 64 << 10 }

    func read(_ resource: CacheResource, limit: Int) throws(TransportFailure) -> [UInt8]? {
        let (status, body) = try send(.GET, resource.path, body: nil, limit: limit)
        switch status {
        case 200: return body
        case 404: return nil
        default: throw TransportFailure("GET \(describe(resource.path)) answered HTTP \(status)")
        }
    }

    func contains(_ resource: CacheResource) throws(TransportFailure) -> Bool {
        try send(.HEAD, resource.path, body: nil, limit: RemoteCache.errorPageLimit).0 == 200
    }

    func write(_ resource: CacheResource, _ body: BlobBody) throws(TransportFailure) -> Bool {
        let bytes: [UInt8]
        switch body {
        case .bytes(let given): bytes = given
        case .file(let path, let size, let hash):
            guard let read = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))),
                  read.count == size, hash.map({ ContentHash.of(read) == $0 }) ?? true else { return false }
            bytes = read
        }
        let (status, _) = try send(.PUT, resource.path, body: bytes, limit: RemoteCache.errorPageLimit)
        guard (200..<300).contains(status) else {
            throw TransportFailure("PUT \(describe(resource.path)) answered HTTP \(status)")
        }
        return true
    }

    func download(_ hash: ContentHash, size: Int, into descriptor: Int32) throws(TransportFailure) -> BlobReceipt? {
        let address = url("cas/\(hash.hex)")
        let outcome: BlobDownload.Outcome
        do {
            outcome = try client.download(address, into: descriptor, limit: size)
        } catch {
            throw TransportFailure("GET \(address.absoluteString) failed: \(error)", giveUp: error is BodyTooLong || error is TooSlow)
        }
        switch outcome.status {
        case 200: return BlobReceipt(hash: outcome.hash ?? ContentHash.of([UInt8]()), size: outcome.size, written: outcome.written)
        case 404: return nil
        default: throw TransportFailure("GET \(address.absoluteString) answered HTTP \(outcome.status)")
        }
    }

    func receive(_ segment: ContentHash, into receiver: SegmentReceiver) throws(TransportFailure) -> SegmentReceiver.Outcome? {
        let address = url("cas/\(segment.hex)")
        let outcome: SegmentDownload.Outcome
        do {
            outcome = try client.receive(address, with: SegmentDownload(receiver), carrying: receiver.size)
        } catch {
            throw TransportFailure("GET \(address.absoluteString) failed: \(error)", giveUp: error is BodyTooLong || error is TooSlow)
        }
        switch outcome.status {
        case 200: return outcome.segment
        case 404: return nil
        default: throw TransportFailure("GET \(address.absoluteString) answered HTTP \(outcome.status)")
        }
    }

    /// One request, waited for; a transport error or timeout is a failure (a server that drips
    /// its answers, or sends more than an answer can be, is broken or hostile: not asked again).
    private func send(_ method: HTTPMethod, _ path: String, body: [UInt8]?, limit: Int) throws(TransportFailure) -> (Int, [UInt8]) {
        do {
            let answer = try client.send(method, url(path), body: body, limit: limit)
            return (answer.status, answer.body)
        } catch {
            throw TransportFailure("\(method.rawValue) \(url(path).absoluteString) failed: \(error)",
                                   giveUp: error is TooSlow || error is BodyTooLong)
        }
    }
}
