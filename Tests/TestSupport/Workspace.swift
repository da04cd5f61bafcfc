import Foundation

/// A temporary folder for one test, with helpers to lay out inputs from the corpus. Shared by the
/// test targets (one copy, not one per target); the corpus is found from this file's path.
public final class Workspace {
    public let root: String

    public static let corpus: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/corpus").path

    public static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    public init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    public var input: String { "\(root)/input" }

    /// Copies a corpus file to `input/<name>`.
    public func add(_ corpusPath: String, as name: String) throws {
        let target = "\(input)/\(name)"
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(Self.corpus)/\(corpusPath)", toPath: target)
    }

    /// Writes bytes to `input/<name>`.
    public func write(_ bytes: [UInt8], as name: String) throws {
        let target = "\(input)/\(name)"
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: target, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// Every file under `folder`, relative, sorted, with their bytes.
    public func files(under folder: String) -> [String: Data] { Self.files(under: folder) }

    /// Every file under `folder`, relative, with their bytes.
    public static func files(under folder: String) -> [String: Data] {
        var result: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [:] }
        while let next = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: "\(folder)/\(next)", isDirectory: &isFolder)
            if !isFolder.boolValue { result[next] = FileManager.default.contents(atPath: "\(folder)/\(next)") }
        }
        return result
    }
}
