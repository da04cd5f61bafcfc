import TesseraCore

/// A file a job reads while it runs, keyed by its content, not its path: the same bytes under
/// two names are one job, and a changed file is a new one.
public struct SourceFile: Sendable, Hashable, Encodable {
    public let path: String
    /// nil when the file could not be read while planning: the job reads it and fails then,
    /// and its key stays apart from any readable file's.
    public let contentHash: ContentHash?

    public init(path: String, contentHash: ContentHash?) {
        self.path = path
        self.contentHash = contentHash
    }

    public func encode(to encoder: any Encoder) throws {
        // Only the content is keyed; the path is noted for whoever must ship the job's files
        // elsewhere (a remote executor's input root).
        DeclaredInputs.noteSource(path, in: encoder)
        var container = encoder.singleValueContainer()
        try container.encode(contentHash?.hex ?? "unreadable")
    }
}
