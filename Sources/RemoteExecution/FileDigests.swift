import Foundation
import RemoteAPI
import Synchronization
import TesseraCore

/// The digests of the files actions ship, each file hashed once a build (through the build
/// cache's fingerprint index, so an unchanged file is not read again on the next build).
final class FileDigests: Sendable {
    private let hash: @Sendable (String) throws(TesseraError) -> ContentHash
    private let known = Mutex<[String: REAPIDigest]>([:])

    init(hash: @escaping @Sendable (String) throws(TesseraError) -> ContentHash) {
        self.hash = hash
    }

    /// The input-root file at `path` whose bytes are the file at `source`.
    func file(at path: String, source: String, executable: Bool = false) throws(TesseraError) -> InputRoot.File {
        InputRoot.File(path: path, digest: try digest(of: source), executable: executable, content: .file(source))
    }

    func digest(of source: String) throws(TesseraError) -> REAPIDigest {
        if let digest = known.withLock({ $0[source] }) { return digest }
        var status = stat()
        guard stat(source, &status) == 0 else {
            throw TesseraError(.io, file: source, origin: .execute, reason: "cannot read it to ship it to the executor")
        }
        let digest = REAPIDigest(try hash(source), size: Int(status.st_size))
        known.withLock { $0[source] = digest }
        return digest
    }
}
