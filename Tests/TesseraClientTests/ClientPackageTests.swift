import Foundation
import Testing

/// What an app resolves when it adds Tessera as Xcode adds a package: with its default traits.
@Suite("The package as an app adds it")
struct ClientPackageTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test("a consumer that names Tessera with no trait settings resolves swift-crypto and swift-asn1 alone: no server, database, HTTP-client, protobuf, gRPC or NIO package")
    func defaultTraitsResolveTheClientAlone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-consumer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // As Xcode's "Add Package Dependencies" and a Package.swift line without `traits:` name it.
        try """
            // swift-tools-version:6.1
            import PackageDescription
            let package = Package(
                name: "App",
                dependencies: [.package(path: "\(Self.packageRoot)")],
                targets: [.executableTarget(name: "App", dependencies: [.product(name: "TesseraClient", package: "\((Self.packageRoot as NSString).lastPathComponent)")])]
            )
            """.write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import TesseraClient\n".write(to: folder.appendingPathComponent("Sources/App/main.swift"), atomically: true, encoding: .utf8)
        let resolve = Process()
        resolve.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        resolve.arguments = ["swift", "package", "--package-path", folder.path, "resolve"]
        let log = Pipe()
        resolve.standardOutput = log
        resolve.standardError = log
        try resolve.run()
        let output = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        resolve.waitUntilExit()
        try #require(resolve.terminationStatus == 0, "\(output)")
        let resolved = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("Package.resolved"))) as? [String: Any])
        let pins = Set((resolved["pins"] as? [[String: Any]] ?? []).compactMap { $0["identity"] as? String })
        #expect(pins == ["swift-crypto", "swift-asn1"], "\(pins.sorted())")
    }
}
