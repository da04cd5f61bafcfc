import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reading a Contents.json from disk: inside the input folder only, a regular file of at most
/// `byteLimit` bytes, a JSON object at the top, lists of at most `entryLimit` entries.
///
/// Xcode writes Contents.json files of a few kilobytes (the largest app icon sets in the fixtures'
/// real apps are under 20 KB, about 40 entries). One of 63 MB with a million entries took 104 s
/// and 4.4 GB to read (issue 39); the limits refuse it at once, as a vector file over its limit is.
enum ContentsFile {
    /// The largest Contents.json read: 1 MiB.
    static let byteLimit = 1 << 20
    /// The most entries in any of its lists (`images`, `data`, `colors`, …).
    static let entryLimit = 4096

    /// The top of the Contents.json at `path` (named `file` in problems); nil, with the problem
    /// reported, when it cannot be read. A missing file is a problem only when `required` (a
    /// group folder needs none).
    static func read(_ path: String, file: String, boundary: InputBoundary, required: Bool,
                     problems: inout [CatalogProblem]) -> ContentsField? {
        let top = ContentsField(file: file, key: "", value: nil)
        if FileManager.default.fileExists(atPath: path), !boundary.contains(path) {
            problems.append(top.problem("a link to a file outside the input folder; not read"))
            return nil
        }
        if let reason = InputBoundary.notARegularFile(path) {
            problems.append(top.problem(reason))
            return nil
        }
        guard let data = readBounded(path) else {
            if FileManager.default.fileExists(atPath: path) {
                problems.append(top.problem("cannot be read: \(String(cString: strerror(errno)))"))
            } else if required {
                problems.append(top.problem("missing Contents.json"))
            }
            return nil
        }
        guard data.count <= byteLimit else {
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? data.count
            problems.append(top.problem("the file is \(size) bytes; a Contents.json is at most \(byteLimit) bytes (1 MiB); not read"))
            return nil
        }
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                problems.append(top.problem("the top level is not a JSON object"))
                return nil
            }
            for (key, value) in object.sorted(by: { $0.key < $1.key }) {
                if let list = value as? [Any], list.count > entryLimit {
                    problems.append(top[key].problem("\(list.count) entries; a Contents.json list holds at most \(entryLimit); not read"))
                    return nil
                }
            }
            return ContentsField(file: file, key: "", value: object)
        } catch {
            problems.append(top.problem("malformed JSON: \(error.localizedDescription)"))
            return nil
        }
    }

    /// The file's first `byteLimit + 1` bytes at most (one more than allowed tells it is too
    /// long without reading it all); nil when it cannot be opened. POSIX reads: Foundation's
    /// `contents(atPath:)` leaked a 4 KiB buffer on every call (found by the catalog fuzzer).
    private static func readBounded(_ path: String) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64 << 10)
        var total = 0
        while total <= byteLimit {
            if total == bytes.count { bytes += [UInt8](repeating: 0, count: min(bytes.count, byteLimit + 1 - total)) }
            let count = bytes[total...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            total += count
        }
        return Data(bytes[0..<total])
    }
}
