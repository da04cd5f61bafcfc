import Foundation
import Testing
import TestServers
import TestSupport

/// The fuzz targets built from single files (`Fuzz/standalone-sources.txt`) compile only with
/// the files listed beside them; CI's fuzz phase, which runs after the whole suite, once failed
/// because a reader had come to need a new file. Type-checking each list here makes that a test
/// failure in `make test`, minutes into CI rather than at its end.
@Suite("fuzz harnesses built from single files")
struct FuzzHarnessTests {
    @Test("each standalone fuzz target's harness type-checks with exactly the files its list gives")
    func standaloneTargetsTypeCheck() async throws {
        let root = Workspace.packageRoot
        let list = try String(contentsOfFile: "\(root)/Fuzz/standalone-sources.txt", encoding: .utf8)
        let targets = list.split(separator: "\n").filter { !$0.hasPrefix("#") && $0.contains(":") }.map { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts[1].split(separator: " ").map(String.init))
        }
        #expect(Set(targets.map(\.0)) == ["RequestHeadScan", "PDFAnswer"])
        for (target, files) in targets {
            // Absolute paths: the runner starts the compiler in the temporary folder.
            let arguments = ["swiftc", "-typecheck", "-parse-as-library", "-swift-version", "6", "-package-name", "Tessera",
                             "-module-name", "\(target)Fuzz", "\(root)/Fuzz/Harnesses/\(target)Fuzz.swift"] + files.map { "\(root)/\($0)" }
            let (status, output) = try await OwnThread.run {
                try ServerProcess.run(URL(fileURLWithPath: "/usr/bin/env"), arguments, timeout: 600)
            }
            #expect(status == 0, "Fuzz/run.sh \(target) would not build:\n\(output)")
        }
    }
}
