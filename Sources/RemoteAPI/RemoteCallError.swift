import Foundation
import GRPCCore

/// A remote call that failed, in words for the one warning a run prints.
package struct RemoteCallError: Error, CustomStringConvertible, Sendable {
    package var description: String
    /// The gRPC status code, when the server (or the transport) answered with one.
    package var code: RPCError.Code?

    package init(_ description: String, code: RPCError.Code? = nil) {
        self.description = description
        self.code = code
    }

    /// The code of a `google.rpc.Status` a server put in an answer (a batch's per-blob status).
    package static func code(_ raw: Int32) -> RPCError.Code? {
        Status.Code(rawValue: Int(raw)).flatMap { RPCError.Code($0) }
    }

    /// A status code as gRPC's documentation and other clients' messages spell it (`INVALID_ARGUMENT`).
    package static func name(of code: RPCError.Code) -> String {
        var name = ""
        for character in "\(code)" {
            if character.isUppercase { name.append("_") }
            name.append(contentsOf: character.uppercased())
        }
        return name
    }

    /// `error` described, with its gRPC status when it is an `RPCError`.
    package init(_ call: String, _ error: any Error) {
        if let error = error as? RemoteCallError {
            self.init("\(call): \(error.description)", code: error.code)
        } else if let error = error as? RPCError {
            self.init("\(call) failed: \(Self.name(of: error.code)): \(error.message)", code: error.code)
        } else {
            self.init("\(call) failed: \(error)")
        }
    }
}
