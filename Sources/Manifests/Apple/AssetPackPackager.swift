import Foundation
import TesseraCore

/// Apple's `ba-package` (Xcode 26, or Apple's packaging tool for Linux and Windows), run on each
/// pack's manifest from the output folder, its staging root, to check and package it as an
/// Apple Archive: `apple/archives/<id>.aar`. Used when `ba-package` is on the `PATH` (or named by
/// `TESSERA_BA_PACKAGE`); without it the manifests are written for a later `ba-package` run.
public struct AssetPackPackager: Sendable {
    public let executable: String

    /// The tool, when this machine has it.
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> AssetPackPackager? {
        if let named = environment["TESSERA_BA_PACKAGE"], !named.isEmpty {
            return FileManager.default.isExecutableFile(atPath: named) ? AssetPackPackager(executable: named) : nil
        }
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(folder)/ba-package"
            if FileManager.default.isExecutableFile(atPath: candidate) { return AssetPackPackager(executable: candidate) }
        }
        return nil
    }

    public static func archivePath(_ id: String) -> String { "apple/archives/\(id).aar" }

    /// Packages each pack; throws on the first the tool refuses, with what it said.
    public func package(_ plan: ManagedAssetPackPlan, in folder: String) throws(TesseraError) -> [String] {
        var written: [String] = []
        try? FileManager.default.createDirectory(atPath: "\(folder)/apple/archives", withIntermediateDirectories: true)
        for pack in plan.packs {
            let manifest = ManagedAssetPackFiles.manifestPath(pack.id), archive = Self.archivePath(pack.id)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = [manifest, "-o", archive]
            process.currentDirectoryURL = URL(fileURLWithPath: folder)
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                throw TesseraError(.io, file: executable, origin: .manifest, reason: "cannot run ba-package: \(error)")
            }
            let said = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                let text = String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                throw TesseraError(.invalidInput, file: "\(folder)/\(manifest)", origin: .manifest,
                                   reason: "ba-package refused the pack (exit \(process.terminationStatus)): \(text)")
            }
            written.append(archive)
        }
        return written
    }
}
