import Foundation
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
            throw TesseraError(.limitExceeded, file: url.absoluteString, stage: .client, reason: "\(what) is over \(limit >> 20) MiB")
        }
        bytes.append(piece)
    }
}
