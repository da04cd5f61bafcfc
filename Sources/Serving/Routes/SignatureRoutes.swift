import Delivery
import Foundation
import Hummingbird
import PublishedBuilds
import TesseraCore

extension BuildServer {
    /// `PUT /v1/builds/ID/signatures/CHANNEL`: keeps a manifest signature (a `manifest.json.sig`
    /// sidecar, docs/security.md) for the build on that channel. The server holds no key and does
    /// not judge the signatures (clients check them against the root they pin); it refuses a
    /// sidecar that is not one, or whose statement names another channel or another manifest.
    func storeSignature(_ request: Request, build: BuildID, channel: String) async throws -> Response {
        let channel = try checkedChannelName(channel)
        var request = request
        let buffer = try await request.collectBody(upTo: ManifestSidecar.maxBytes)
        let bytes = Array(buffer.readableBytesView)
        let source = "PUT /v1/builds/\(build)/signatures/\(channel)"
        return try await answering {
            let signature = try Self.checkedSignature(bytes, build: build, channel: channel, source: source)
            try await builds.putSignature(signature, build: build, channel: channel)
            return try JSONResponse.of(["build": build, "channel": channel, "version": String(signature.version)])
        }
    }

    /// A sidecar that arrived for `build` on `channel` (put alone or with a move), with the
    /// version its statement signs; refused when it is not a sidecar or is for another channel or
    /// manifest (the server cannot check who signed it: it holds no root).
    static func checkedSignature(_ bytes: [UInt8], build: BuildID, channel: String,
                                 source: String) throws(TesseraError) -> ChannelSignature {
        let sidecar = try ManifestSidecar.decode(bytes, source: source)
        let statement = try ManifestStatement.open(sidecar.manifest, source: source)
        guard statement.channel == channel, statement.manifest.sha256.hex == build else {
            throw TesseraError(.invalidInput, file: source, origin: .publish,
                               reason: "the signature is for channel '\(statement.channel)' and manifest \(statement.manifest.sha256.hex)")
        }
        return ChannelSignature(sidecar: String(decoding: bytes, as: UTF8.self), version: statement.version)
    }

    /// The header of a channel's manifest answer that names its build's signature (`HTTPFields.Element`:
    /// Hummingbird exports HTTPFields but not HTTPField).
    static let signatureLocation = HTTPFields.Element.Name("Tessera-Signature-Location")!

    /// `GET /v1/channels/NAME/manifest.sig`: the signature kept for the channel's current build
    /// on that channel (`404` when it has none), beside `…/manifest` as a static host serves
    /// `manifest.json.sig` beside `manifest.json`. Never cached: it changes when the channel moves.
    func channelSignature(name: String) async throws -> Response {
        try await signature(build: try await currentBuild(name), channel: name)
    }

    /// `GET /v1/builds/ID/signatures/CHANNEL` (what `Tessera-Signature-Location` names): the
    /// signature kept for that build on that channel, `404` when there is none. Not cached: a
    /// build signed again (a later version or expiry) replaces it.
    func signature(build: BuildID, channel: String) async throws -> Response {
        let name = try checkedChannelName(channel)
        return try await answering {
            guard let sidecar = try await builds.signature(build: build, channel: name) else {
                throw HTTPError(.notFound, message: "build \(build) has no signature for channel '\(name)'")
            }
            return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: Array(sidecar.utf8))))
        }
    }
}
