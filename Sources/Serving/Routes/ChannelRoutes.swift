import Delivery
import Foundation
import Hummingbird
import PublishedBuilds
import TesseraCore

/// The body of `PUT /v1/channels/NAME`: move to `build` if the channel is at `expected` now
/// (absent or null: the channel must not exist yet); `kind` (default `promote`) goes into the
/// channel's history, which rollbacks walk. `signature`, a `manifest.json.sig` sidecar's JSON
/// for `build` on this channel, is kept with the move in one transaction (docs/security.md):
/// on a signed channel a move needs one signed above the channel's highest signed version,
/// unless the build already holds the channel's newest signature.
public struct ChannelMove: Sendable, Codable, Equatable {
    public var build: BuildID
    public var expected: BuildID?
    public var kind: ChannelMoveKind?
    public var signature: String?

    public init(build: BuildID, expected: BuildID?, kind: ChannelMoveKind? = nil, signature: String? = nil) {
        self.build = build
        self.expected = expected
        self.kind = kind
        self.signature = signature
    }
}

extension BuildServer {
    /// Channel names: 1 to 64 of `a-z 0-9 . _ -`, starting with a letter or digit.
    static func isChannelName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count), let first = bytes.first, Self.isAlphanumeric(first) else { return false }
        return bytes.allSatisfy { Self.isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x7a).contains(byte)
    }

    func checkedChannelName(_ name: String) throws -> String {
        guard Self.isChannelName(name) else {
            throw HTTPError(.badRequest, message: "'\(name)' is not a channel name (a-z, 0-9, '.', '_', '-'; at most 64)")
        }
        return name
    }

    func currentChannel(_ name: String) async throws -> ChannelState {
        guard let state = try await builds.channel(try checkedChannelName(name)) else {
            throw HTTPError(.notFound, message: "no channel '\(name)'")
        }
        return state
    }

    func channelState(_ name: String) async throws -> Response {
        try JSONResponse.of(try await currentChannel(name))
    }

    func moveChannel(_ request: Request, name: String) async throws -> Response {
        let name = try checkedChannelName(name)
        var request = request
        // Room for a signature (a sidecar, escaped as a JSON string) besides the build IDs.
        let buffer = try await request.collectBody(upTo: 2 * ManifestSidecar.maxBytes + 4096)
        let move: ChannelMove
        do {
            move = try JSONDecoder().decode(ChannelMove.self, from: Data(buffer.readableBytesView))
        } catch {
            throw HTTPError(.badRequest, message: "expected {\"build\": ID, \"expected\": ID or null, \"signature\": sidecar or absent}: \(error)")
        }
        return try await answering {
            // A plain `if`, not `Optional.map` with a typed-throws closure: Swift 6.3's optimiser
            // crashed splitting this async closure around one (a release build only).
            var signature: ChannelSignature?
            if let sidecar = move.signature {
                signature = try Self.checkedSignature(Array(sidecar.utf8), build: move.build, channel: name,
                                                      source: "PUT /v1/channels/\(name)")
            }
            do {
                let state = try await builds.moveChannel(name, to: move.build, expected: move.expected, kind: move.kind ?? .promote,
                                                         signature: signature)
                channelBuilds.moved(name, to: state.build)
                return try JSONResponse.of(state)
            } catch {
                channelBuilds.moved(name, to: nil)
                throw error
            }
        }
    }

    /// `GET /v1/builds/ID/manifest`: a complete build's manifest bytes, which `tessera channel
    /// promote|rollback --sign` signs for the channel it moves (the signature covers these
    /// bytes' SHA-256, the build ID, so the signer checks them against it).
    func buildManifest(_ id: BuildID) async throws -> Response {
        try await answering {
            guard let record = try await builds.build(id), record.state == .complete else {
                throw HTTPError(.notFound, message: "no complete build \(id)")
            }
            guard let digest = ContentHash(hex: id), let bytes = blobs.read(digest) else {
                throw TesseraError(.io, file: id, origin: .serve, reason: "the manifest blob of build \(id) is missing")
            }
            return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }

    /// The build a channel points at now; `404` when there is no such channel.
    func currentBuild(_ name: String) async throws -> BuildID {
        guard let build = try await channelBuilds.build(of: try checkedChannelName(name)) else {
            throw HTTPError(.notFound, message: "no channel '\(name)'")
        }
        return build
    }

    /// The channel's manifest, naming in `Tessera-Signature-Location` its build's signature for
    /// the channel (`SignatureRoutes`): a client reading it gets the signature of the manifest it
    /// has, even if the channel moves between the two requests.
    func channelManifest(_ request: Request, name: String) async throws -> Response {
        let build = try await currentBuild(name)
        var response = try await answering { try manifests.entry(for: build).representation.response(to: request) }
        response.headers[Self.signatureLocation] = "/v1/builds/\(build)/signatures/\(name)"
        return response
    }
}
