/// What a job works on, as the job keeps it until the run's report: a name, or a path under a
/// folder, kept as the two strings they were made from (shared with the stage's input and every
/// other job in the folder) and joined when read.
///
/// A job's subject lives to the end of the run; joined when the job was made it was one more
/// string of about 80 bytes for each of the 500,000 writes, copies and objects of 100,000 tiny
/// masters (issue 54, item 14), scattered among the pages the jobs' freed work leaves.
public struct JobSubject: Sendable, Hashable {
    /// The folder `name` is under; nil when `name` is the whole subject.
    public let folder: String?
    public let name: String

    /// A subject that is the whole of `text`.
    public init(_ text: String) {
        folder = nil
        name = text
    }

    /// The path `name` under `folder`: read as `folder/name`.
    public init(_ name: String, under folder: String) {
        self.folder = folder
        self.name = name
    }

    public var text: String { folder.map { "\($0)/\(name)" } ?? name }
}
