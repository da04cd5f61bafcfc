import Foundation
import TesseraCore

/// A download in progress, kept between attempts and launches: the bytes received so far and the
/// validator (ETag, else Last-Modified) of the response they came from, which `If-Range` sends
/// back so the server only continues the same file.
final class PartialFile: @unchecked Sendable {
    let path: String
    let validatorPath: String
    private let lock = NSLock()
    private var handle: FileHandle?
    private(set) var size: Int

    init(folder: String, name: String) {
        path = "\(folder)/\(name).part"
        validatorPath = "\(folder)/\(name).validator"
        size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    var validator: String? {
        guard size > 0, let data = FileManager.default.contents(atPath: validatorPath) else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// Starts over from byte 0 under a new validator (nil: resuming is impossible).
    func restart(validator: String?) throws(TesseraError) {
        lock.lock()
        defer { lock.unlock() }
        do {
            try? handle?.close()
            handle = nil
            try? FileManager.default.removeItem(atPath: validatorPath)
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw TesseraError(.io, file: path, origin: .client, reason: "cannot create the partial download")
            }
            size = 0
            if let validator { try AtomicFile.write(Array(validator.utf8), to: validatorPath) }
        }
    }

    func append(_ data: Data) throws(TesseraError) {
        lock.lock()
        defer { lock.unlock() }
        do {
            do {
                if handle == nil {
                    handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                    try handle?.seekToEnd()
                }
                try handle?.write(contentsOf: data)
                size += data.count
            } catch {
                throw TesseraError(.io, file: path, origin: .client, reason: "cannot write: \(error.localizedDescription)")
            }
        }
    }

    /// Flushes and closes what an attempt wrote.
    func close() {
        lock.withLock {
            try? handle?.synchronize()
            try? handle?.close()
            handle = nil
        }
    }

    func remove() {
        close()
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: validatorPath)
        lock.withLock { size = 0 }
    }
}
