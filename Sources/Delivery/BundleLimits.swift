/// Hard limits a bundle reader enforces before it trusts a size read from the file.
///
/// Every length, offset and size in a record header, the index or the footer is checked against
/// the file's size and these limits before anything is allocated or read, so a hostile bundle
/// costs at most these amounts of memory whatever it declares.
public struct BundleLimits: Sendable, Equatable {
    /// Longest payload the stream reader buffers (it holds one record at a time).
    public var maxPayloadLength: Int
    /// Largest uncompressed entry. Extraction and verification stream entries, so this bounds
    /// disk use and time, not memory; 8 GiB is Apple's asset pack limit from iOS 18.
    public var maxUncompressedSize: Int
    /// Longest index record; `BundleFile` holds the index in memory.
    public var maxIndexLength: Int
    /// Largest entry returned whole in memory (`BundleFile.contents(of:)`, `BundleRecord.contents()`).
    public var maxInMemorySize: Int

    public init(maxPayloadLength: Int = 1 << 30, maxUncompressedSize: Int = 8 << 30,
                maxIndexLength: Int = 256 << 20, maxInMemorySize: Int = 1 << 30) {
        self.maxPayloadLength = maxPayloadLength
        self.maxUncompressedSize = maxUncompressedSize
        self.maxIndexLength = maxIndexLength
        self.maxInMemorySize = maxInMemorySize
    }

    /// The limits every command uses.
    public static let standard = BundleLimits()
}
