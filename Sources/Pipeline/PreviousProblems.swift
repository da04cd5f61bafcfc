import Foundation
import HTTPRequests
import TesseraCore

/// The problem files of the previous build an `--against` names (`BuildReport.problemFiles`),
/// read from the `report.json` beside its manifest: in its folder, beside a manifest URL, or a
/// `tessera serve` channel's `…/report` (what `tessera publish` uploads with the build).
public enum PreviousProblems {
    /// The most a previous build's report may hold.
    static let maxBytes = 16 << 20

    /// Its problem files, or nil with the reason when they cannot be known (no report there, a
    /// report from before Tessera kept them, a server that does not answer): every problem is
    /// then annotated, as without `--against`.
    public static func load(_ location: String) -> (files: [String: String]?, unknown: String?) {
        let bytes: [UInt8]
        let source: String
        if let url = URL(string: location), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let reportURL = Self.reportURL(for: url)
            source = reportURL.absoluteString
            do {
                let answer = try HTTPRequest.sendWaiting("GET", reportURL, headers: [("Accept", "application/json")],
                                                         timeout: ReportedBuildLoader.timeout, maxBodyBytes: maxBytes)
                guard answer.status == 200 else { return (nil, "\(source) answered HTTP \(answer.status)") }
                bytes = answer.body
            } catch {
                return (nil, "cannot fetch \(source): \(error)")
            }
        } else {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: location, isDirectory: &isFolder)
            source = exists && isFolder.boolValue ? "\(location)/report.json"
                : ((location as NSString).deletingLastPathComponent as NSString).appendingPathComponent("report.json")
            guard let data = FileManager.default.contents(atPath: source), data.count <= maxBytes else {
                return (nil, "no report.json at \(source)")
            }
            bytes = Array(data)
        }
        guard let report = try? JSONDecoder().decode(BuildReport.self, from: Data(bytes)) else {
            return (nil, "\(source) is not a Tessera build report")
        }
        guard let files = report.problemFiles else { return (nil, "\(source) is from a Tessera that did not record its problems' files") }
        return (files, nil)
    }

    /// A channel's `…/v1/channels/NAME[/manifest]` → `…/v1/channels/NAME/report`; any other URL
    /// (a manifest on a static host) → `report.json` beside it.
    static func reportURL(for url: URL) -> URL {
        let manifest = ReportedBuildLoader.manifestURL(url)
        let parts = manifest.path.split(separator: "/")
        if parts.count >= 4, parts[parts.count - 4] == "v1", parts[parts.count - 3] == "channels", parts.last == "manifest" {
            return manifest.deletingLastPathComponent().appendingPathComponent("report")
        }
        return manifest.deletingLastPathComponent().appendingPathComponent("report.json")
    }
}
