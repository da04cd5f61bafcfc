import Foundation
@testable import RemoteAPI
import SwiftProtobuf
import Testing
import TesseraCore
import REAPIMessages

@Suite("Action messages: input roots, commands, output trees")
struct ActionMessageTests {
    private func file(_ path: String, _ text: String, executable: Bool = false) -> InputRoot.File {
        InputRoot.File(path: path, bytes: Data(text.utf8), executable: executable)
    }

    @Test("an input root's digest does not depend on the order its files are given in")
    func rootDigestIsOrderFree() throws {
        let files = [file("tessera", "binary", executable: true), file("in/b/x.png", "x"), file("in/a.json", "{}"),
                     file("in/b/Contents.json", "c"), file("job/units", "u\n")]
        let one = try InputRoot(files)
        let other = try InputRoot(files.reversed())
        #expect(one.digest == other.digest)
        #expect(one.blobs.count == other.blobs.count)
        // Five files and four directories (root, in, in/b, job).
        #expect(one.blobs.count == 9)
    }

    @Test("a directory lists its subdirectories and files sorted by name, with digests and the executable bit")
    func directoriesAreCanonical() throws {
        let root = try InputRoot([file("z", "z"), file("a", "a", executable: true), file("m/q", "q"), file("B/r", "r")])
        guard case .bytes(let bytes)? = root.blobs[root.digest] else { Issue.record("no root message"); return }
        let directory = try Build_Bazel_Remote_Execution_V2_Directory(serializedBytes: bytes)
        #expect(directory.directories.map(\.name) == ["B", "m"])
        #expect(directory.files.map(\.name) == ["a", "z"])
        #expect(directory.files.map(\.isExecutable) == [true, false])
        #expect(directory.files[0].digest == REAPIDigest(of: Data("a".utf8)))
        #expect(REAPIDigest(of: bytes) == root.digest)
    }

    @Test("paths that escape or collide are refused, naming the path")
    func badPathsAreRefused() {
        for paths in [["../x"], ["/abs"], ["a/./b"], ["a//b"], ["x", "x"], ["a", "a/b"], ["a/b", "a"]] {
            #expect(throws: TesseraError.self, "\(paths)") { try InputRoot(paths.map { file($0, $0) }) }
        }
    }

    @Test("a command lists environment and outputs sorted, and carries the platform in command and action")
    func commandIsCanonical() throws {
        let command = ActionCommand(arguments: ["./tessera", "run"], environment: ["TMPDIR": "/tmp", "HOME": "/tmp"],
                                    outputPaths: ["cache/cas", "cache/ac"], platform: ["OSFamily": "linux", "ISA": "x86-64"],
                                    timeout: .seconds(90))
        let root = REAPIDigest(of: Data("root".utf8))
        let (commandBytes, actionBytes) = command.messages(root: root)
        let decoded = try Build_Bazel_Remote_Execution_V2_Command(serializedBytes: commandBytes)
        #expect(decoded.environmentVariables.map(\.name) == ["HOME", "TMPDIR"])
        #expect(decoded.outputPaths == ["cache/ac", "cache/cas"])
        #expect(decoded.platform.properties.map(\.name) == ["ISA", "OSFamily"])
        let action = try Build_Bazel_Remote_Execution_V2_Action(serializedBytes: actionBytes)
        #expect(action.commandDigest == REAPIDigest(of: commandBytes))
        #expect(action.inputRootDigest == root)
        #expect(action.timeout.seconds == 90)
        #expect(action.platform == decoded.platform)
        // The same command is the same bytes: the action cache can hit.
        #expect(command.messages(root: root).action == actionBytes)
    }

    @Test("an output tree lists every file under its path with its digest")
    func outputTreeListsFiles() throws {
        var leaf = Build_Bazel_Remote_Execution_V2_Directory()
        var node = Build_Bazel_Remote_Execution_V2_FileNode()
        node.name = "abcd"
        node.digest = REAPIDigest(of: Data("entry".utf8))
        leaf.files = [node]
        let leafBytes = try leaf.serializedData()
        var root = Build_Bazel_Remote_Execution_V2_Directory()
        var folder = Build_Bazel_Remote_Execution_V2_DirectoryNode()
        folder.name = "ab"
        folder.digest = REAPIDigest(of: leafBytes)
        root.directories = [folder]
        var top = Build_Bazel_Remote_Execution_V2_FileNode()
        top.name = "top"
        top.digest = REAPIDigest(of: Data("t".utf8))
        root.files = [top]
        var tree = Build_Bazel_Remote_Execution_V2_Tree()
        tree.root = root
        tree.children = [leaf]
        let files = try OutputTree(treeBytes: try tree.serializedData()).files
        #expect(files == ["ab/abcd": REAPIDigest(of: Data("entry".utf8)), "top": REAPIDigest(of: Data("t".utf8))])

        tree.children = []
        #expect(throws: TesseraError.self) { try OutputTree(treeBytes: try tree.serializedData()) }
        #expect(throws: TesseraError.self) { try OutputTree(treeBytes: Data([0xFF, 0xFF, 0xFF])) }
    }
}
