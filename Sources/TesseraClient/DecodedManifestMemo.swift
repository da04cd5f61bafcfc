import Delivery
import Foundation
import Synchronization

/// The last manifest the store held, decoded, with its exact bytes: an update read the held
/// manifest again to diff against it and decoded the new one twice (to check it, then to commit
/// it), four decodes of a 9 MB manifest at about 0.45 s each (`Benchmarks/updates.sh`, G4). A
/// decoded manifest is reused only for the very bytes it was decoded from.
final class DecodedManifestMemo: Sendable {
    private let last = Mutex<(bytes: Data, manifest: Manifest)?>(nil)

    /// The manifest decoded from exactly `bytes`, if it is the one remembered.
    func manifest(for bytes: Data) -> Manifest? {
        last.withLock { entry in
            guard let entry, entry.bytes.count == bytes.count, entry.bytes == bytes else { return nil }
            return entry.manifest
        }
    }

    func remember(_ manifest: Manifest, decodedFrom bytes: Data) {
        last.withLock { $0 = (bytes, manifest) }
    }
}
