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
        if let url = URL(string: location), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            return ReportedBuild(manifest: try Manifest.decode(try fetch(manifestURL(url), named: location), source: location),
                                 folder: nil, manifestURL: manifestURL(url))
        }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: location, isDirectory: &isFolder)
        let path = exists && isFolder.boolValue ? "\(location)/manifest.json" : location
        guard FileManager.default.fileExists(atPath: path) else {
            throw TesseraError(.io, file: path, stage: .report, reason: "no build here: neither a build folder with a manifest.json nor a manifest file")
        }
        let folder = (path as NSString).deletingLastPathComponent
        return ReportedBuild(manifest: try ManifestWriter.read(from: path), folder: folder.isEmpty ? "." : folder)
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
    private static func fetch(_ url: URL, named location: String) throws(TesseraError) -> Data {
        let answer: HTTPRequest.Answer
        do {
            answer = try HTTPRequest.sendWaiting("GET", url, headers: [("Accept", "application/json")], timeout: timeout)
        } catch {
            throw TesseraError(.io, file: location, stage: .report, reason: "cannot fetch the previous build's manifest: \(error)")
        }
        guard answer.status == 200 else {
            throw TesseraError(.io, file: location, stage: .report,
                               reason: "the server answered HTTP \(answer.status) for the previous build's manifest (\(url.absoluteString))")
        }
        return Data(answer.body)
    }
}
