/// A job in a graph together with the type of what it returns: what `JobGraph.add` hands back,
/// and what a dependent job or the caller reads the result through, with no cast.
///
/// The type is fixed where the job is made (`Job<Output>`), so a reference can only ever name a
/// result of its own type.
public struct JobRef<Output: Sendable>: Sendable, Hashable {
    public let key: JobKey

    init(_ key: JobKey) { self.key = key }

    public static func == (lhs: JobRef, rhs: JobRef) -> Bool { lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }
}
