import Delivery
import Dispatch
import Foundation
import HTTPRequests
import SizeReporting
import Synchronization
import TesseraCore

/// The previous build's pictures for a report made against a server (`--against` a channel or
/// a manifest URL), where no file of that build is at hand: the variants the page shows (the
/// biggest changes, `SizeReportPage.previousPictures`) fetched by ranges of the bundles that hold
/// them (footer, index, then each entry), checked against the index's and the manifest's
/// SHA-256, into a temporary folder laid out as the build's was. Bounded in bytes and time:
/// what is not fetched in time is shown as an empty frame, as before.
public enum PreviousPictures {
    public struct Limits: Sendable {
        /// All bytes fetched, ranges of footers and indexes included.
        public var maxBytes = 32 << 20
        /// The whole fetch.
        public var seconds: Double = 20
        public init() {}
    }

    /// What was fetched: the folder (to hand the page as the build's, then delete); `problems`
    /// says why some pictures were not.
    public struct Fetched: Sendable {
        public var folder: String
        /// The variants chosen to picture (those fetched, and those that failed).
        public var files: Set<String>
        public var problems: [String]
    }

    /// Fetches the pictures `report`'s page shows of `previous` when it came from a server;
    /// nil when it has its folder, or nothing to picture.
    public static func fetch(for previous: ReportedBuild, report: SizeReport, side: Int, limits: Limits = Limits()) -> Fetched? {
        guard previous.folder == nil, let manifestURL = previous.manifestURL else { return nil }
        // Only what a bundle holds can be fetched (what stays in the app is not on the server),
        // so the picture is chosen among the packed variants: each by the bundle that holds it
        // (any one of them: they have the same bytes).
        let bundles = previous.manifest.bundles
        var bundleOf: [String: Int] = [:]
        for (index, bundle) in bundles.enumerated() { for entry in bundle.entries where bundleOf[entry] == nil { bundleOf[entry] = index } }
        let wanted = SizeReportPage.previousPictures(report, previous: previous.manifest, side: side) {
            bundleOf[BundleEntryName.entry(forOutput: $0.path, folder: "assets")] != nil
        }
        guard !wanted.isEmpty else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-previous-\(UUID().uuidString)").path
        var byBundle: [Int: [(VariantEntry, String)]] = [:]
        for variant in wanted {
            let entry = BundleEntryName.entry(forOutput: variant.path, folder: "assets")
            if let index = bundleOf[entry] { byBundle[index, default: []].append((variant, entry)) }
        }
        let budget = FetchBudget(bytes: limits.maxBytes, until: Date().addingTimeInterval(limits.seconds))
        let jobs = byBundle.sorted { $0.key < $1.key }
        let problems = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let (bundleIndex, files) = jobs[index]
            let bundle = bundles[bundleIndex]
            guard let url = bundleURL(bundle, manifestURL: manifestURL) else { return }
            switch Result(catching: { () throws(TesseraError) in try fetch(files, from: url, size: bundle.bytes, into: folder, budget: budget) }) {
            case .success: break
            case .failure(let error): problems.withLock { $0.append("\(url.absoluteString): \(error.reason)") }
            }
        }
        return Fetched(folder: folder, files: Set(wanted.map(\.path)), problems: problems.withLock { $0 }.sorted())
    }

    /// Runs `body` with `previous` as its page should picture it: for one from a server, its
    /// pictures fetched into a temporary folder, deleted afterwards.
    /// `warn` hears why pictures were not fetched (one line per bundle).
    public static func picturing<T>(_ previous: ReportedBuild?, report: SizeReport, side: Int, warn: (String) -> Void = { _ in },
                                    _ body: (ReportedBuild?) throws(TesseraError) -> T) throws(TesseraError) -> T {
        guard var previous, let fetched = fetch(for: previous, report: report, side: side) else { return try body(previous) }
        for problem in fetched.problems { warn("a before picture was not fetched: \(problem)") }
        defer { try? FileManager.default.removeItem(atPath: fetched.folder) }
        previous.folder = fetched.folder
        previous.pictured = fetched.files
        return try body(previous)
    }

    /// Where a bundle of a manifest fetched from `manifestURL` is: its absolute URL when the
    /// manifest names one (a CDN); on a `tessera serve` (a channel's or a build's manifest), by
    /// its hash (`/b/SHA256.tsb`), as the server keeps it; else beside the manifest (a static host).
    static func bundleURL(_ bundle: BundleEntry, manifestURL: URL) -> URL? {
        if let absolute = URL(string: bundle.url), let scheme = absolute.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            return absolute
        }
        let parts = manifestURL.path.split(separator: "/")
        if parts.count >= 3, parts[parts.count - 3] == "v1" || (parts.count >= 4 && parts[parts.count - 4] == "v1"),
           parts.contains("channels") || parts.contains("builds"), parts.last == "manifest" {
            return URL(string: "/b/\(bundle.sha256.hex).tsb", relativeTo: manifestURL)?.absoluteURL
        }
        return URL(string: bundle.url, relativeTo: manifestURL)?.absoluteURL
    }

    /// One bundle's wanted files: its footer, its index, then each entry's payload.
    private static func fetch(_ files: [(VariantEntry, String)], from url: URL, size: Int, into folder: String,
                              budget: FetchBudget) throws(TesseraError) {
        guard size >= BundleFooter.size else { throw TesseraError(.invalidInput, origin: .report, reason: "not a bundle") }
        let footer = try range(url, size - BundleFooter.size..<size, budget: budget)
        let indexRange = try BundleRanges.indexRange(footer: footer, bundleSize: size)
        let index = try BundleRanges.index(record: try range(url, indexRange, budget: budget), at: indexRange.lowerBound)
        let entries = Dictionary(index.entries.map { ($0.name, $0) }) { first, _ in first }
        for (variant, name) in files {
            guard let entry = entries[name], entry.sha256 == variant.sha256 else { continue }
            let payload = try range(url, entry.payloadOffset..<entry.payloadOffset + entry.payloadLength, budget: budget)
            let contents = try BundleRanges.contents(of: entry, payload: payload)
            let path = "\(folder)/\(variant.path)"
            do {
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            } catch {
                throw TesseraError(.io, file: path, origin: .report, reason: "cannot make its folder")
            }
            try AtomicFile.write(contents, to: path)
        }
    }

    /// `bytes` of `url`, by a Range request within the budget; a server that ignores ranges is
    /// not read past the budget either.
    private static func range(_ url: URL, _ bytes: Range<Int>, budget: FetchBudget) throws(TesseraError) -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        let (allowed, seconds) = budget.take(bytes.count)
        guard allowed, seconds > 0 else {
            throw TesseraError(.limitExceeded, origin: .report, reason: "the pictures' byte or time budget is spent")
        }
        let answer: HTTPRequest.Answer
        do {
            answer = try HTTPRequest.sendWaiting("GET", url, headers: [("Range", "bytes=\(bytes.lowerBound)-\(bytes.upperBound - 1)")],
                                                 timeout: seconds, maxBodyBytes: bytes.count)
        } catch {
            throw TesseraError(.io, origin: .report, reason: "\(error)")
        }
        guard answer.status == 206, answer.body.count == bytes.count else {
            throw TesseraError(.io, origin: .report, reason: "HTTP \(answer.status) for bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)")
        }
        return answer.body
    }
}

/// What is left of the pictures' budget, shared by the fetches running at once.
private final class FetchBudget: Sendable {
    private let left: Mutex<Int>
    private let until: Date

    init(bytes: Int, until: Date) {
        left = Mutex(bytes)
        self.until = until
    }

    /// Takes `count` bytes if that many are left; with the seconds left.
    func take(_ count: Int) -> (Bool, Double) {
        let granted = left.withLock { left in
            guard left >= count else { return false }
            left -= count
            return true
        }
        return (granted, until.timeIntervalSinceNow)
    }
}
