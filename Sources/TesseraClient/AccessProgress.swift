/// How far a `beginAccessing()` has got: bytes of the bundles it needs that are local and
/// verified, out of all of them (bundles already local count as done from the start).
public struct AccessProgress: Sendable, Equatable {
    public var completedBytes: Int
    public var totalBytes: Int

    public var fraction: Double { totalBytes == 0 ? 1 : Double(completedBytes) / Double(totalBytes) }

    public init(completedBytes: Int, totalBytes: Int) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }
}
