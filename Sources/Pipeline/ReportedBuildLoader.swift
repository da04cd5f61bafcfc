import Delivery
import Foundation
import HTTPRequests
import Manifests
import SizeReporting
import TesseraCore

/// A build a size report describes or compares with (`BUILD`, `--against`, `against:`): a build folder, a
/// `manifest.json`, a URL to one, or a `tessera serve` channel's URL. Pictures of its variants
/// are made only when its files are on disk.
public enum ReportedBuildLoader {
    /// How long a server may take to answer.
    static let timeout: TimeInterval = 30

    public static func load(_ location: String) throws(TesseraError) -> ReportedBuild {
        let found = try manifestBytes(location)
        let reference = ManifestReference(of: found.bytes)
        if let url = found.url {
            return ReportedBuild(manifest: try Manifest.decode(Data(found.bytes), source: location), folder: nil, manifestURL: url,
                                 reference: reference)
        }
        return ReportedBuild(manifest: try ManifestWriter.read(from: found.path), folder: found.folder, reference: reference,
                             updateIndex: updateIndex(in: found.folder))
    }

    /// The `updates.json` in `folder`, when there is one that reads: what the size report's
    /// update cost takes the manifest's patch and compressed size from. One that does not read
    /// is as none (the client then fetches the manifest whole, which is what the report counts).
    public static func updateIndex(in folder: String?) -> UpdateIndex? {
        guard let folder, let data = FileManager.default.contents(atPath: "\(folder)/\(UpdateIndex.fileName)") else { return nil }
        return try? UpdateIndex.decode(data, source: UpdateIndex.fileName)
    }

    /// A build's manifest as its exact bytes, and where it is: what `load` reads, and what a
    /// build `--against` it diffs its own manifest with (`PreviousManifests`).
    public struct Located: Sendable {
        public var bytes: [UInt8]
        /// The manifest file and its folder, for one on disk.
        public var path: String
        public var folder: String?
        /// Where it was fetched from, for one on a server.
        public var url: URL?
    }

    /// The exact bytes of the manifest `location` names (a build folder, a manifest file, a URL
    /// to one, or a channel's URL), unchecked: callers decode them.
    public static func manifestBytes(_ location: String) throws(TesseraError) -> Located {
        if let url = URL(string: location), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            return Located(bytes: [UInt8](try fetch(manifestURL(url), named: location)), path: location, folder: nil,
                           url: manifestURL(url))
        }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: location, isDirectory: &isFolder)
        let path = exists && isFolder.boolValue ? "\(location)/manifest.json" : location
        guard FileManager.default.fileExists(atPath: path), let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.io, file: path, origin: .report, reason: "no build here: neither a build folder with a manifest.json nor a manifest file")
        }
        let folder = (path as NSString).deletingLastPathComponent
        return Located(bytes: [UInt8](data), path: path, folder: folder.isEmpty ? "." : folder)
    }

    /// A channel's URL (`…/v1/channels/NAME`) means its manifest (`…/manifest`).
    static func manifestURL(_ url: URL) -> URL {
        let parts = url.path.split(separator: "/")
        if parts.count >= 3, parts[parts.count - 3] == "v1", parts[parts.count - 2] == "channels" {
            return url.appendingPathComponent("manifest")
        }
        return url
    }

    /// GETs `url`, waiting for the whole answer: a report is made once, at the end of a build.
    static func fetch(_ url: URL, named location: String) throws(TesseraError) -> Data {
        let answer: HTTPRequest.Answer
        do {
            answer = try HTTPRequest.sendWaiting("GET", url, headers: [("Accept", "application/json")], timeout: timeout)
        } catch {
            throw TesseraError(.io, file: location, origin: .report, reason: "cannot fetch the previous build's manifest: \(error)")
        }
        guard answer.status == 200 else {
            throw TesseraError(.io, file: location, origin: .report,
                               reason: "the server answered HTTP \(answer.status) for the previous build's manifest (\(url.absoluteString))")
        }
        return Data(answer.body)
    }
}
