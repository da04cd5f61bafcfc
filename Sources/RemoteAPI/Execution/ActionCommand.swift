import Foundation
import SwiftProtobuf
import TesseraCore
import REAPIMessages

/// What an action runs: its arguments, environment, the outputs it hands back, the platform it
/// needs and how long it may take; made into the `Command` and `Action` messages an `Execute`
/// names by digest.
package struct ActionCommand: Sendable {
    package var arguments: [String]
    package var environment: [String: String]
    /// Files or folders the server hands back, relative to the input root.
    package var outputPaths: [String]
    /// Platform properties (`OSFamily`, `ISA`, `container-image`, …), matched against workers.
    package var platform: [String: String]
    package var timeout: Duration

    package init(arguments: [String], environment: [String: String], outputPaths: [String],
                 platform: [String: String], timeout: Duration) {
        self.arguments = arguments
        self.environment = environment
        self.outputPaths = outputPaths
        self.platform = platform
        self.timeout = timeout
    }

    /// The `Command` and the `Action` (naming it and `root`), each serialised: the action's
    /// digest is what `Execute` and the action cache know it by.
    package func messages(root: REAPIDigest) -> (command: Data, action: Data) {
        var command = Build_Bazel_Remote_Execution_V2_Command()
        command.arguments = arguments
        // REAPI wants both lists sorted, so equal commands are equal bytes.
        command.environmentVariables = environment.keys.sorted().map { name in
            var variable = Build_Bazel_Remote_Execution_V2_Command.EnvironmentVariable()
            variable.name = name
            variable.value = environment[name]!
            return variable
        }
        command.outputPaths = outputPaths.sorted()
        let platform = self.platform.isEmpty ? nil : platformMessage
        // Servers before API 2.2 read the platform from the command, later ones from the action.
        if let platform { command.platform = platform }
        let commandBytes = (try? command.serializedData()) ?? Data()
        var action = Build_Bazel_Remote_Execution_V2_Action()
        action.commandDigest = REAPIDigest(of: commandBytes)
        action.inputRootDigest = root
        var timeout = Google_Protobuf_Duration()
        let (seconds, attoseconds) = self.timeout.components
        timeout.seconds = seconds
        timeout.nanos = Int32(attoseconds / 1_000_000_000)
        action.timeout = timeout
        if let platform { action.platform = platform }
        return (commandBytes, (try? action.serializedData()) ?? Data())
    }

    private var platformMessage: Build_Bazel_Remote_Execution_V2_Platform {
        var message = Build_Bazel_Remote_Execution_V2_Platform()
        message.properties = platform.keys.sorted().map { name in
            var property = Build_Bazel_Remote_Execution_V2_Platform.Property()
            property.name = name
            property.value = platform[name]!
            return property
        }
        return message
    }
}
