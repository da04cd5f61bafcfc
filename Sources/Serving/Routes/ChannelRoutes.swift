import Foundation
import Hummingbird
import PublishedBuilds
import TesseraCore

/// The body of `PUT /v1/channels/NAME`: move to `build` if the channel is at `expected` now
/// (absent or null: the channel must not exist yet); `kind` (default `promote`) goes into the
/// channel's history, which rollbacks walk.
public struct ChannelMove: Sendable, Codable, Equatable {
    public var build: BuildID
    public var expected: BuildID?
    public var kind: ChannelMoveKind?

    public init(build: BuildID, expected: BuildID?, kind: ChannelMoveKind? = nil) {
        self.build = build
        self.expected = expected
        self.kind = kind
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
        try writes.authorize(request)
        let name = try checkedChannelName(name)
        var request = request
        let buffer = try await request.collectBody(upTo: 4096)
        let move: ChannelMove
        do {
            move = try JSONDecoder().decode(ChannelMove.self, from: Data(buffer.readableBytesView))
        } catch {
            throw HTTPError(.badRequest, message: "expected {\"build\": ID, \"expected\": ID or null}: \(error)")
        }
        return try await answering {
            do {
                let state = try await builds.moveChannel(name, to: move.build, expected: move.expected, kind: move.kind ?? .promote)
                channelBuilds.moved(name, to: state.build)
                return try JSONResponse.of(state)
            } catch {
                channelBuilds.moved(name, to: nil)
                throw error
            }
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
