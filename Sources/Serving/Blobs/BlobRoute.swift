/// The two kinds of content-addressed file `tessera serve` answers with the same rules (strong
/// ETag, immutable caching, nginx's ranges: `BlobAnswer`): bundles, named by the SHA-256 of
/// their bytes, and objects (`docs/updates.md`), named by the SHA-256 of their decoded contents.
enum BlobRoute: Sendable, Equatable {
    /// `/b/<sha256>.tsb`, from the build store's blobs.
    case bundle
    /// `/o/<sha256>`, from its objects.
    case object

    /// What the target starts with.
    var prefix: String {
        switch self {
        case .bundle: "/b/"
        case .object: "/o/"
        }
    }

    /// What follows the digest in the file name.
    var suffix: String {
        switch self {
        case .bundle: ".tsb"
        case .object: ""
        }
    }

    /// What the answer to a name that is not there calls it.
    var noun: String {
        switch self {
        case .bundle: "bundle"
        case .object: "object"
        }
    }
}
