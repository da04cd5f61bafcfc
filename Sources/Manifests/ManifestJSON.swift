import Delivery
import TesseraCore

/// A manifest's JSON in pieces (`StreamedJSON`), byte for byte what `StableJSON.encode(manifest)`
/// makes: its long lists (assets, data, app files, bundles, app shares and their assets, objects) spliced in a chunk of
/// entries at a time.
public enum ManifestJSON {
    public static let defaultChunk = StreamedJSON.defaultChunk

    /// Calls `emit` with consecutive pieces of the manifest's JSON.
    static func encode(_ manifest: Manifest, chunk: Int = defaultChunk,
                       _ emit: ([UInt8]) throws(TesseraError) -> Void) throws(TesseraError) {
        var skeleton = manifest
        skeleton.assets = []
        skeleton.data = []
        skeleton.bundles = []
        skeleton.app = manifest.app.map { _ in [] }
        skeleton.appShares = manifest.appShares.map { _ in [] }
        skeleton.objects = manifest.objects.map { _ in [] }
        let lists = [
            StreamedJSON.List("assets", manifest.assets), StreamedJSON.List("data", manifest.data),
            StreamedJSON.List("bundles", manifest.bundles), StreamedJSON.List("app", manifest.app ?? []),
            // A device's app share lists every in-app asset: streamed too, a share at a time.
            StreamedJSON.List("appShares", documents: manifest.appShares ?? []) { share in
                var bare = share
                bare.assets = []
                return (bare, [StreamedJSON.List("assets", share.assets)])
            },
            StreamedJSON.List("objects", manifest.objects ?? []),
        ]
        try StreamedJSON.encode(skeleton, lists: lists, chunk: chunk, emit)
    }
}
