import Delivery
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Pipeline
import Testing
import TesseraCore
import TestServers

/// A plain HTTP client of `tessera serve` (issue 28): query answers name bundle URLs the server
/// answers, and `client-demo --channel` loads a channel's tags as the README shows.
@Suite("tessera serve: query URLs and client-demo --channel", .serialized)
struct ServeQueryURLTests {
    @Test("a build without an absolute base-url: every query URL is /b/<sha256>.tsb and the server answers it; client-demo --channel works")
    func queryURLsAreServed() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-query-urls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        var text = try String(contentsOfFile: SampleBuild.packageRoot.appendingPathComponent("Pipelines/samples.yml").path, encoding: .utf8)
        text = text.replacingOccurrences(of: #"base-url: "https://cdn.example.com/app/""#, with: #"base-url: """#)
        let build = work.appendingPathComponent("build")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: try PipelineFileReader.parse(text, file: "samples.yml"),
                                                                inputFolder: SampleBuild.packageRoot.appendingPathComponent("Samples").path,
                                                                outputFolder: build.path))
        #expect(outcome.exitStatus == 0)
        let server = try ServeProcess(folder: work.appendingPathComponent("serve").path)
        defer { server.stop() }
        let published = try await ServeProcess.run(["publish", build.path, "--server", server.url, "--token-file", server.tokenFile,
                                              "--channel", "production"])
        #expect(published.status == 0, "\(published.stderr)")

        let (data, response) = try await URLSession.shared.data(from: URL(string: "\(server.url)/v1/channels/production/query?device=iPhone15,2&tags=Green")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let answer = try JSONDecoder().decode(QueryAnswer.self, from: data)
        #expect(!answer.bundles.isEmpty)
        for bundle in answer.bundles {
            #expect(bundle.url == "/b/\(bundle.sha256).tsb")
            let (body, reply) = try await URLSession.shared.data(from: URL(string: server.url + bundle.url)!)
            #expect((reply as? HTTPURLResponse)?.statusCode == 200 && ContentHash.of([UInt8](body)).hex == bundle.sha256)
        }

        let (status, printed) = try await runClientDemo(["--server", server.url, "--channel", "production", "--device", "iPhone15,2",
                                                   "--tags", "Green", "--store", work.appendingPathComponent("store").path])
        #expect(status == 0, "\(printed)")
        #expect(printed.contains("Green Star\t") && printed.contains("bytes installed"), "\(printed)")
    }
}

/// The part of a query answer this test reads.
private struct QueryAnswer: Decodable {
    struct Bundle: Decodable {
        var url: String
        var sha256: String
    }
    var bundles: [Bundle]
}
