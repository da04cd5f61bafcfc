import Delivery
import Dispatch
import Foundation
import Synchronization
import TesseraCore

/// Packs every file under a folder into one bundle (`tessera bundle create`): entries named by
/// their path under the folder, in sorted order.
///
/// Payloads worth compressing are compressed on every core a window at a time, then written in
/// order, so the bytes never depend on which core finished first; stored files are streamed.
public enum FolderBundler {
    public static func bundle(folder: String, into path: String,
                              compressor: PayloadCompressor) throws(TesseraError) -> WrittenBundleFile {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else {
            throw TesseraError(.io, file: folder, origin: .bundle, reason: "cannot list the folder")
        }
        var names: [String] = []
        while let next = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: "\(folder)/\(next)", isDirectory: &isFolder), !isFolder.boolValue {
                names.append(next)
            }
        }
        names.sort()
        let writer = try BundleWriter(path: path, compressor: compressor)
        let window = 32
        for start in stride(from: 0, to: names.count, by: window) {
            let slice = Array(names[start..<min(names.count, start + window)])
            let prepared = Mutex<[Int: Result<PreparedPayload?, TesseraError>]>([:])
            DispatchQueue.concurrentPerform(iterations: slice.count) { index in
                let name = slice[index]
                let result = Result { () throws(TesseraError) -> PreparedPayload? in
                    try PreparedPayload.compressed(fileAt: "\(folder)/\(name)", kind: kind(of: name), name: name,
                                                   compressor: compressor)
                }
                prepared.withLock { $0[index] = result }
            }
            let results = prepared.withLock { $0 }
            for (index, name) in slice.enumerated() {
                if let payload = try results[index]!.get() {
                    try writer.add(name: name, kind: kind(of: name), traits: "", payload: payload)
                } else {
                    try writer.addFile(name: name, kind: kind(of: name), traits: "", path: "\(folder)/\(name)")
                }
            }
        }
        return try writer.finish()
    }

    private static func kind(of name: String) -> BundleRecord.Kind {
        ImageFormat(fileExtension: URL(fileURLWithPath: name).pathExtension) != nil ? .image : .data
    }
}
