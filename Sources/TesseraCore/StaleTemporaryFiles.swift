import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Temporary files `AtomicFileWriter` left behind when its process died before committing or
/// discarding them (kill -9, a crash, power loss). A normal failure or Ctrl-C removes its own.
public enum StaleTemporaryFiles {
    /// Whether `name` is one `AtomicFileWriter` makes: the prefix, the final file name, a dot and
    /// mkstemp's six letters or digits.
    public static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix(AtomicFile.temporaryPrefix) else { return false }
        let rest = name.utf8.dropFirst(AtomicFile.temporaryPrefix.utf8.count)
        guard rest.count >= 8 else { return false }
        let suffix = rest.suffix(7)
        return suffix.first == UInt8(ascii: ".")
            && suffix.dropFirst().allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// Deletes every regular file with a temporary name under `folder`, at any depth, and returns
    /// their paths. Symbolic links are neither followed nor deleted, so nothing outside `folder`
    /// is touched; a folder that does not exist has nothing to sweep. Run it before the run
    /// writes: a run's own temporary files would be swept too.
    public static func sweep(under folder: String) -> [String] {
        var removed: [String] = []
        var pending = [folder]
        while let current = pending.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: current) else { continue }
            for name in names.sorted() {
                let path = "\(current)/\(name)"
                var status = stat()
                guard lstat(path, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR:
                    pending.append(path)
                case S_IFREG where isTemporaryName(name):
                    if unlink(path) == 0 { removed.append(path) }
                default:
                    continue
                }
            }
        }
        return removed.sorted()
    }
}
