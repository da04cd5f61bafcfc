import Delivery
import Foundation
import Hummingbird
import PublishedBuilds
import TesseraCore

/// What `POST /v1/builds` answers: the build, its state and the blobs still to upload.
public struct PublishAnswer: Sendable, Codable, Equatable {
    public var id: BuildID
    public var state: BuildState
    /// SHA-256 hex of each blob the server does not have yet, sorted.
    public var missing: [String]
    /// SHA-256 hex of each object the manifest lists that the server does not have yet, sorted;
    /// absent from servers that keep no objects. A build completes without them (publishers that
    /// predate objects still publish); devices then fetch whole bundles.
    public var missingObjects: [String]?

    public init(id: BuildID, state: BuildState, missing: [String], missingObjects: [String]? = nil) {
        self.id = id
        self.state = state
        self.missing = missing
        self.missingObjects = missingObjects
    }
}

extension BuildServer {
    /// Registers a build from its manifest (the request body) and completes it when every blob
    /// is present. Idempotent: posting the same manifest again after uploading completes it.
    func publishBuild(_ request: Request, context: ServeRequestContext) async throws -> Response {
        var request = request
        let buffer = try await request.collectBody(upTo: configuration.maxManifestBytes)
        let bytes = Array(buffer.readableBytesView)
        return try await answering {
            // Validated as every client validates it (`Manifest.decode`): the server stores and serves
            // no manifest its clients would refuse.
            let manifest = try Manifest.decode(Data(bytes), source: "POST /v1/builds")
            let digest = ContentHash.of(bytes)
            if !blobs.contains(digest) {
                try blobs.put(bytes, as: digest)
            }
            if !FileManager.default.fileExists(atPath: blobs.gzipPath(of: digest)) {
                try AtomicFile.write(try Gzip.compress(bytes), to: blobs.gzipPath(of: digest))
            }
            var record = try await builds.registerBuild(id: digest.hex, pipeline: manifest.pipeline,
                                                         blobs: manifest.bundles.map(\.sha256))
            let missing = record.blobs.filter { !blobs.contains($0) }.map(\.hex)
            if missing.isEmpty && record.state == .uploading {
                try await builds.markComplete(record.id)
                record.state = .complete
            }
            let objects = blobs.objects
            // Absent for a manifest that lists no objects (minor version 0).
            let missingObjects = manifest.objects.map { $0.map(\.sha256).filter { !objects.contains($0) }.map(\.hex) }
            return try JSONResponse.of(PublishAnswer(id: record.id, state: record.state, missing: missing,
                                                     missingObjects: missingObjects),
                                       status: record.state == .complete ? .ok : .accepted)
        }
    }

    /// Stores one blob, streamed to a temporary file and renamed into place only when its bytes
    /// hash to its name.
    func storeBlob(_ request: Request, digest name: String) async throws -> Response {
        let digest = try Self.digest(named: name)
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > configuration.maxBlobBytes {
            throw HTTPError(.contentTooLarge, message: "blob of \(declared) bytes is over the \(configuration.maxBlobBytes)-byte limit")
        }
        if blobs.contains(digest) { return Response(status: .ok) }
        return try await answering {
            let upload = try blobs.begin(digest, limit: configuration.maxBlobBytes)
            do {
                for try await buffer in request.body {
                    try buffer.withUnsafeReadableBytes { (bytes) throws(TesseraError) in try upload.append(bytes) }
                }
            } catch {
                upload.discard()
                throw error
            }
            try upload.commit()
            return Response(status: .created)
        }
    }

    /// The digest a blob or object route names: 64 lower-case hex digits, nothing else (`400`).
    static func digest(named name: String) throws -> ContentHash {
        guard name.utf8.count == 64, name.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
              let digest = ContentHash(hex: name) else {
            throw HTTPError(.badRequest, message: "'\(name)' is not a lower-case SHA-256 hex digest")
        }
        return digest
    }

    /// `GET /v1/builds?prefix=HEX`: the build IDs starting with it (at most 10), for commands
    /// that take a unique prefix; at least 4 hex digits, as git asks.
    func buildsWithPrefix(_ request: Request) async throws -> Response {
        let prefix = request.uri.queryParameters["prefix"].map(String.init) ?? ""
        guard prefix.count >= 4, prefix.count <= 64, prefix.allSatisfy(\.isHexDigit) else {
            throw HTTPError(.badRequest, message: "prefix: 4 to 64 hex digits")
        }
        return try JSONResponse.of(BuildList(builds: try await builds.builds(withPrefix: prefix.lowercased(), limit: 10)))
    }

    func buildRecord(_ id: String) async throws -> Response {
        guard let record = try await builds.build(id) else { throw HTTPError(.notFound, message: "no build \(id)") }
        return try JSONResponse.of(record)
    }
}

/// The answer of `GET /v1/builds?prefix=`.
public struct BuildList: Sendable, Codable, Equatable {
    public var version = 1
    public var builds: [BuildID]

    public init(builds: [BuildID]) {
        self.builds = builds
    }
}

extension BuildServer {
    /// Stores one object (`PUT /v1/objects/<sha256>?encoding=identity|xz&bytes=N`): its transfer
    /// bytes, checked to decode to `bytes` bytes hashing to the name before it is stored.
    func storeObject(_ request: Request, digest name: String) async throws -> Response {
        let digest = try Self.digest(named: name)
        let query = request.uri.queryParameters
        guard let encoding = query["encoding"].flatMap({ TransferEncoding(rawValue: String($0)) }),
              let bytes = query["bytes"].flatMap({ Int(String($0)) }), (0...configuration.maxBlobBytes).contains(bytes) else {
            throw HTTPError(.badRequest, message: "encoding=identity|xz and bytes=N (the decoded size, at most \(configuration.maxBlobBytes)) are required")
        }
        let objects = blobs.objects
        if objects.contains(digest) { return Response(status: .ok) }
        var request = request
        let body = try await request.collectBody(upTo: configuration.maxBlobBytes)
        return try await answering {
            try objects.putObject(Array(body.readableBytesView), as: digest, encoding: encoding, bytes: bytes)
            return Response(status: .created)
        }
    }
}
