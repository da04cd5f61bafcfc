import Delivery
import Foundation
import HTTPRequests
import Manifests
import PublishedBuilds
import TesseraCore

/// The client side of `tessera publish` and `tessera channel`: the build server's write routes.
public struct BuildServerClient: Sendable {
    public let server: URL
    public let token: String?

    public init(server: URL, token: String?) {
        self.server = server
        self.token = token
    }

    /// What a publish did.
    public struct Publication: Sendable, Equatable {
        public var build: BuildID
        public var uploaded: Int
        public var alreadyPresent: Int
        /// Objects (`objects/<sha256>`) uploaded: those the server lacked.
        public var objectsUploaded: Int = 0
    }

    /// Publishes the build in `folder` (its `manifest.json` and every bundle it lists): registers
    /// it, uploads the blobs and objects the server lacks, then registers it again, which completes it.
    public func publish(buildFolder folder: String) async throws(TesseraError) -> Publication {
        let manifestPath = "\(folder)/manifest.json"
        let manifest = try ManifestWriter.read(from: manifestPath)
        guard let bytes = FileManager.default.contents(atPath: manifestPath) else {
            throw TesseraError(.io, file: manifestPath, origin: .publish, reason: "cannot read the manifest")
        }
        let first: PublishAnswer = try decode(try await send("POST", "v1/builds", body: Data(bytes)))
        var files: [String: String] = [:]
        for bundle in manifest.bundles { files[bundle.sha256.hex] = "\(folder)/\(bundle.path)" }
        for hex in first.missing {
            guard let path = files[hex] else {
                throw TesseraError(.internalFailure, file: server.absoluteString, origin: .publish,
                                   reason: "the server asked for blob \(hex), which the manifest does not list")
            }
            // A bundle edited after the build would be refused by the server; say which file it is.
            guard let data = FileManager.default.contents(atPath: path) else {
                throw TesseraError(.io, file: path, origin: .publish, reason: "cannot read the bundle")
            }
            guard ContentHash.of(data).hex == hex else {
                throw TesseraError(.invalidInput, file: path, origin: .publish, reason: "the bundle's SHA-256 is not the manifest's \(hex)")
            }
            _ = try await send("PUT", "v1/blobs/\(hex)", body: data)
        }
        let objectsUploaded = try await uploadObjects(first.missingObjects ?? [], of: manifest, in: folder)
        let second: PublishAnswer = try decode(try await send("POST", "v1/builds", body: Data(bytes)))
        guard second.state == .complete else {
            throw TesseraError(.internalFailure, file: server.absoluteString, origin: .publish,
                               reason: "build \(second.id) is still missing \(second.missing.count) blobs after upload")
        }
        // The build's report.json, when beside it: a pull request's `--against` this build reads
        // it to annotate only the files it changed (docs/ci.md).
        if let report = FileManager.default.contents(atPath: "\(folder)/report.json") {
            _ = try await send("PUT", "v1/builds/\(second.id)/report", body: report)
        }
        let wanted = Set(manifest.bundles.map(\.sha256)).count
        return Publication(build: second.id, uploaded: first.missing.count, alreadyPresent: wanted - first.missing.count,
                           objectsUploaded: objectsUploaded)
    }

    /// Uploads the objects the server asked for from the build folder, each with its encoding
    /// and decoded size, which the server checks it against; returns how many.
    private func uploadObjects(_ missing: [String], of manifest: Manifest, in folder: String) async throws(TesseraError) -> Int {
        var listed: [String: TransferObject] = [:]
        for object in manifest.objects ?? [] { listed[object.sha256.hex] = object }
        for hex in missing {
            guard let object = listed[hex] else {
                throw TesseraError(.internalFailure, file: server.absoluteString, origin: .publish,
                                   reason: "the server asked for object \(hex), which the manifest does not list")
            }
            let path = "\(folder)/\(object.path)"
            guard let data = FileManager.default.contents(atPath: path) else {
                throw TesseraError(.io, file: path, origin: .publish, reason: "cannot read the object")
            }
            _ = try await send("PUT", "v1/objects/\(hex)?encoding=\(object.encoding.rawValue)&bytes=\(object.bytes)", body: data)
        }
        return missing.count
    }

    /// Uploads a manifest signature (a sidecar's bytes) for `build` on `channel`: the server then
    /// answers it at `/v1/channels/CHANNEL/manifest.sig` while the channel points at the build.
    public func putSignature(_ sidecar: [UInt8], build: BuildID, channel: String) async throws(TesseraError) {
        _ = try await send("PUT", "v1/builds/\(build)/signatures/\(channel)", body: Data(sidecar))
    }

    /// The channel, or nil when it does not exist.
    public func channel(_ name: String) async throws(TesseraError) -> ChannelState? {
        do {
            return try decode(try await send("GET", "v1/channels/\(name)"))
        } catch let error where error.reason.hasPrefix("HTTP 404") {
            return nil
        }
    }

    public func channels() async throws(TesseraError) -> [ChannelState] {
        try decode(try await send("GET", "v1/channels"))
    }

    /// Moves `channel` to `build` if it is at `expected` now (compare-and-swap; a lost race is an
    /// error). `signature` (a sidecar's bytes for `build` on `channel`) is kept by the server with
    /// the move in one transaction: both happen or neither does.
    public func move(_ channel: String, to build: BuildID, expected: BuildID?, kind: ChannelMoveKind = .promote,
                     signature: [UInt8]? = nil) async throws(TesseraError) -> ChannelState {
        let move = ChannelMove(build: build, expected: expected, kind: kind,
                               signature: signature.map { String(decoding: $0, as: UTF8.self) })
        return try decode(try await send("PUT", "v1/channels/\(channel)", body: Data(try StableJSON.encode(move))))
    }

    /// Moves `channel` back along its history (`ChannelState.rollbackStack`): to the build before
    /// its current one, or to `target` when that is on the way back. Two rollbacks go two builds back.
    public func rollback(_ channel: String, to target: BuildID? = nil) async throws(TesseraError) -> ChannelState {
        let (state, destination) = try await rollbackDestination(channel, to: target)
        return try await move(channel, to: destination, expected: state.build, kind: .rollback)
    }

    /// The channel as it is now and the build a rollback takes it to (`rollback`'s choice), for a
    /// caller that signs that build before it moves the channel.
    public func rollbackDestination(_ channel: String, to target: BuildID? = nil) async throws(TesseraError) -> (ChannelState, BuildID) {
        guard let state = try await self.channel(channel) else {
            throw TesseraError(.configuration, file: server.absoluteString, origin: .channel, reason: "no channel '\(channel)'")
        }
        guard let destination = state.rollbackTarget(to: target) else {
            let reason = target.map { "build \($0) is not on channel '\(channel)''s way back (\(state.rollbackStack.count) earlier builds); promote it instead" }
                ?? "channel '\(channel)' has no earlier build to roll back to"
            throw TesseraError(.configuration, file: server.absoluteString, origin: .channel, reason: reason)
        }
        return (state, destination)
    }

    /// A complete build's manifest bytes, checked against the build ID (their SHA-256): what a
    /// signature for the build covers, so a server answering other bytes cannot get them signed.
    public func manifest(of build: BuildID) async throws(TesseraError) -> Data {
        let bytes = try await send("GET", "v1/builds/\(build)/manifest")
        guard ContentHash.of(bytes).hex == build else {
            throw TesseraError(.invalidInput, file: server.appendingPathComponent("v1/builds/\(build)/manifest").absoluteString,
                               origin: .channel, reason: "the manifest's SHA-256 is \(ContentHash.of(bytes).hex), not the build ID")
        }
        return bytes
    }

    /// The one build whose ID starts with `text` (4 to 64 hex digits); an error naming the
    /// candidates when several do, or when none does.
    public func resolveBuild(_ text: String) async throws(TesseraError) -> BuildID {
        let prefix = text.lowercased()
        guard (4...64).contains(prefix.count), prefix.allSatisfy(\.isHexDigit) else {
            throw TesseraError(.configuration, file: server.absoluteString, origin: .channel,
                               reason: "'\(text)' is not a build ID or a prefix of one (4 to 64 hex digits)")
        }
        let list: BuildList = try decode(try await send("GET", "v1/builds?prefix=\(prefix)"))
        switch list.builds.count {
        case 1: return list.builds[0]
        case 0: throw TesseraError(.configuration, file: server.absoluteString, origin: .channel, reason: "no build starts with \(prefix)")
        default:
            throw TesseraError(.configuration, file: server.absoluteString, origin: .channel,
                               reason: "\(prefix) is ambiguous: \(list.builds.map { String($0.prefix(16)) }.joined(separator: ", "))\(list.builds.count >= 10 ? ", …" : "")")
        }
    }

    func send(_ method: String, _ path: String, body: Data? = nil) async throws(TesseraError) -> Data {
        // A query is appended as written: `appendingPathComponent` would escape its `?`.
        let route = path.prefix { $0 != "?" }
        let query = path.dropFirst(route.count)
        let url = query.isEmpty ? server.appendingPathComponent(String(route))
            : URL(string: server.appendingPathComponent(String(route)).absoluteString + query) ?? server.appendingPathComponent(String(route))
        var headers: [(String, String)] = []
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if body != nil { headers.append(("Content-Type", "application/octet-stream")) }
        let answer: HTTPRequest.Answer
        do {
            answer = try await HTTPRequest.send(method, url, headers: headers, body: body.map { [UInt8]($0) })
        } catch {
            throw TesseraError(.io, file: url.absoluteString, origin: .client, reason: "request failed: \(error)")
        }
        guard (200..<300).contains(answer.status) else {
            let message = String(decoding: answer.body.prefix(1000), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw TesseraError(answer.status == 409 ? .configuration : .io, file: "\(method) \(url.absoluteString)",
                               origin: .client, reason: "HTTP \(answer.status): \(message)")
        }
        return Data(answer.body)
    }

    private func decode<T: Decodable>(_ data: Data) throws(TesseraError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw TesseraError(.invalidInput, file: server.absoluteString, origin: .client, reason: "unexpected answer: \(error)")
        }
    }
}
