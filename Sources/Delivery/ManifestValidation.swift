import TesseraCore

/// What a manifest may say, checked as a whole when it is decoded (`Manifest.decode`), before
/// the build, the server or an app acts on any of it.
///
/// A manifest comes from a server the app does not control: a hostile one could name a file
/// outside the store (`../`), a bundle of a terabyte, or lists long enough to exhaust memory when
/// walked. Each rule holds for every manifest Tessera writes, with room to spare.
public enum ManifestLimits {
    /// The largest manifest read: 64 MiB (the server takes up to 16 MiB by default).
    public static let maxBytes = 64 << 20
    /// The largest file a manifest may name: 64 GiB (an Apple on-demand tag is at most 8 GB, a
    /// Play asset pack 1.5 GB).
    public static let maxFileBytes = Int(clamping: Int64(64) << 30)
    /// The longest path, in UTF-8 bytes (Linux's `PATH_MAX` is 4,096, a name 255).
    public static let maxPathBytes = 1024
    /// The most pixels a side of a variant may have (the pipeline's own limit is far lower).
    public static let maxSide = 1 << 20
    /// The most entries in any one list (assets, variants, bundles, a bundle's entries, tags, frames).
    public static let maxListCount = 1_000_000
}

extension Manifest {
    /// The first rule this manifest breaks, as a reason naming the field; nil when it keeps them all.
    public func violation() -> String? {
        typealias Limits = ManifestLimits
        // Field names are autoclosures: built only for the rule broken, not for each of a large
        // manifest's tens of thousands of checks (a client validates every manifest it decodes).
        func path(_ value: String, _ field: @autoclosure () -> String) -> String? {
            Self.isSafeRelativePath(value) ? nil : "\(field()) \"\(value.prefix(200))\" is not a relative path inside the build (no /, .., empty or NUL parts; at most \(Limits.maxPathBytes) bytes)"
        }
        func size(_ value: Int, _ field: @autoclosure () -> String) -> String? {
            (0...Limits.maxFileBytes).contains(value) ? nil : "\(field()) is \(value) bytes; at most \(Limits.maxFileBytes) (64 GiB)"
        }
        func count(_ value: Int, _ field: @autoclosure () -> String) -> String? {
            value <= Limits.maxListCount ? nil : "\(field()) has \(value) entries; at most \(Limits.maxListCount)"
        }
        if let problem = count(assets.count, "assets") ?? count(data.count, "data") ?? count(bundles.count, "bundles")
            ?? count(packs.count, "packs") ?? count(app?.count ?? 0, "app") ?? count(appShares?.count ?? 0, "appShares")
            ?? count(objects?.count ?? 0, "objects") { return problem }
        if let predecessors, predecessors.count > Manifest.maxPredecessors {
            return "predecessors has \(predecessors.count) entries; at most \(Manifest.maxPredecessors)"
        }
        for predecessor in predecessors ?? [] {
            if let problem = size(predecessor.bytes, "predecessor \(predecessor.sha256.hex)") { return problem }
        }
        for object in objects ?? [] {
            if let problem = size(object.bytes, "object \(object.sha256.hex)") ?? size(object.transferBytes, "object \(object.sha256.hex) transfer") {
                return problem
            }
        }
        for share in appShares ?? [] {
            if let problem = count(share.assets.count, "appShares \(share.device.prefix(200))") { return problem }
            for asset in share.assets {
                guard (0...Limits.maxFileBytes).contains(asset.bytes) else {
                    return "appShares \(share.device.prefix(200)): \(asset.asset.prefix(200)) is \(asset.bytes) bytes; at most \(Limits.maxFileBytes) (64 GiB)"
                }
                if let problem = count(asset.files.count, "appShares \(share.device.prefix(200)) files") { return problem }
                if let bad = asset.files.first(where: { !Self.isSafeRelativePath($0) }) {
                    return path(bad, "appShares \(share.device.prefix(200)): file")
                }
            }
        }
        for asset in assets {
            var name: String { "asset \"\(asset.name.name.prefix(200))\"" }
            if let problem = count(asset.variants.count, "\(name) variants") ?? count(asset.tags.count, "\(name) tags")
                ?? count(asset.animation?.delaysMs.count ?? 0, "\(name) frames") { return problem }
            for variant in asset.variants {
                if let problem = path(variant.path, "\(name): variant path") ?? size(variant.bytes, "\(name): \(variant.path)") {
                    return problem
                }
                guard (0...Limits.maxSide).contains(variant.width), (0...Limits.maxSide).contains(variant.height) else {
                    return "\(name): \(variant.path) is \(variant.width)×\(variant.height) pixels; a side is at most \(Limits.maxSide)"
                }
                if let ready = variant.readyBitmap,
                   let problem = path(ready.path, "\(name): ready bitmap path") ?? size(ready.bytes, "\(name): \(ready.path)") {
                    return problem
                }
            }
            if let problem = asset.resizing?.violation() { return "\(name): \(problem)" }
            if let vector = asset.vector,
               let problem = path(vector.path, "\(name): vector path") ?? size(vector.bytes, "\(name): \(vector.path)") {
                return problem
            }
        }
        for entry in data + (app ?? []) {
            if let problem = path(entry.path, "data path") ?? size(entry.bytes, entry.path) ?? count(entry.tags.count, "\(entry.path) tags") {
                return problem
            }
        }
        for bundle in bundles {
            if let problem = path(bundle.path, "bundle path") ?? size(bundle.bytes, bundle.path)
                ?? size(bundle.uncompressedSize, "\(bundle.path) uncompressed") ?? count(bundle.entries.count, "\(bundle.path) entries") {
                return problem
            }
            if let entry = bundle.entries.first(where: { !Self.isSafeRelativePath($0) }) {
                return "bundle \(bundle.path): entry \"\(entry.prefix(200))\" is not a relative path inside the bundle"
            }
            guard Self.isFetchable(bundle.url) else {
                return "bundle \(bundle.path): url \"\(bundle.url.prefix(200))\" is neither http(s) nor relative"
            }
        }
        return nil
    }

    /// A path relative to the build folder that stays inside it: no leading `/`, no `.`, `..` or
    /// empty component, no NUL or backslash, at most `maxPathBytes` bytes.
    public static func isSafeRelativePath(_ path: String) -> Bool {
        let bytes = path.utf8
        guard !bytes.isEmpty, bytes.count <= ManifestLimits.maxPathBytes, bytes.first != UInt8(ascii: "/") else { return false }
        // One pass over the bytes, no substrings: called for every path of every manifest decoded.
        var length = 0, dots = 0
        func isSafe(length: Int, dots: Int) -> Bool { length > 0 && !(dots == length && length <= 2) }
        for byte in bytes {
            switch byte {
            case 0, UInt8(ascii: "\\"):
                return false
            case UInt8(ascii: "/"):
                guard isSafe(length: length, dots: dots) else { return false }
                (length, dots) = (0, 0)
            default:
                if byte == UInt8(ascii: "."), dots == length { dots += 1 }
                length += 1
            }
        }
        return isSafe(length: length, dots: dots)
    }

    /// An absolute http(s) URL or a relative reference (no scheme), without control characters.
    static func isFetchable(_ url: String) -> Bool {
        guard !url.isEmpty, url.utf8.count <= 8192, !url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return false
        }
        let lower = url.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") { return true }
        // A scheme is letters, digits, + - . before the first ':' that comes before any '/', '?' or '#'.
        let head = url.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !head.contains(":")
    }
}
