import Foundation
import Hummingbird
import PublishedBuilds
import TesseraCore

extension BuildServer {
    /// The most a build's `report.json` may hold.
    static let maxBuildReportBytes = 16 << 20

    /// Where a build's report is kept: beside the blobs, by build. Not a blob: nothing a device
    /// downloads refers to it, and a build published again replaces it.
    func buildReportPath(_ build: BuildID) -> String { "\(blobs.root)/reports/\(build).json" }

    /// `PUT /v1/builds/ID/report`: keeps the build's `report.json` (its warnings and failures, and
    /// the fingerprints of the files they name), which a pull request's `--against` this build
    /// reads to annotate only what it changed (docs/ci.md). Refused for a build the server does
    /// not have and for a body that is not a JSON object.
    func storeBuildReport(_ request: Request, build: BuildID) async throws -> Response {
        var request = request
        let buffer = try await request.collectBody(upTo: Self.maxBuildReportBytes)
        let bytes = Array(buffer.readableBytesView)
        return try await answering {
            guard try await builds.build(build) != nil else { throw HTTPError(.notFound, message: "no build \(build)") }
            guard (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any] else {
                throw HTTPError(.badRequest, message: "a build report is a JSON object (report.json)")
            }
            try FileManager.default.createDirectory(atPath: "\(blobs.root)/reports", withIntermediateDirectories: true)
            try AtomicFile.write(bytes, to: buildReportPath(build))
            return Response(status: .ok)
        }
    }

    /// `GET /v1/builds/ID/report`: the report kept for the build; `404` when none was uploaded.
    func buildReport(_ build: BuildID) async throws -> Response {
        guard build.utf8.count == 64, build.allSatisfy({ $0.isHexDigit }),
              let bytes = FileManager.default.contents(atPath: buildReportPath(build.lowercased())) else {
            throw HTTPError(.notFound, message: "no report for build \(build)")
        }
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// `GET /v1/channels/NAME/report`: the report of the build the channel points at.
    func channelReport(name: String) async throws -> Response {
        try await buildReport(try await currentBuild(name))
    }
}
