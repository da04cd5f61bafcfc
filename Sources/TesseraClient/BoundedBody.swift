import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TesseraCore

/// A whole response body collected as it arrives, refused past a limit (counted after any
/// decompression the HTTP stack does), so a hostile server cannot fill memory.
final class BoundedBody: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = Data()
    private let limit: Int
    private let what: String
    var data: Data { lock.withLock { bytes } }

    /// `what` names the body in the error (`the manifest`).
    init(limit: Int, what: String) {
        self.limit = limit
        self.what = what
    }

    func append(_ piece: Data, url: URL) throws(TesseraError) {
        lock.lock()
        defer { lock.unlock() }
        guard bytes.count + piece.count <= limit else {
            let bound = limit >= 1 << 20 && limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
            throw TesseraError(.limitExceeded, file: url.absoluteString, origin: .client, reason: "\(what) is over \(bound)")
        }
        bytes.append(piece)
    }

    /// GETs `url` whole, at most `limit` bytes of body: the status and the body (empty unless 200).
    static func get(_ url: URL, limit: Int, what: String, timeout: TimeInterval,
                    deadline: TimeInterval) async throws(TesseraError) -> (status: Int, body: Data, head: HTTPStream.Head) {
        let body = BoundedBody(limit: limit, what: what)
        var request = URLRequest(url: url)
        // Sizes are checked against what the files are (the index's, the patch's): no compressed form.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        let head = try await HTTPStream.get(request, timeout: timeout, deadline: deadline, priority: URLSessionTask.highPriority,
                                            onHead: { _ in }, onBody: { (data) throws(TesseraError) in try body.append(data, url: url) })
        return (head.status, head.status == 200 ? body.data : Data(), head)
    }
}
