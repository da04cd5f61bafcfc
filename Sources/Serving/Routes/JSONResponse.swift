import Hummingbird
import PublishedBuilds
import TesseraCore

/// Tessera's stable JSON (sorted keys) as a response, never cached.
enum JSONResponse {
    static func of<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let bytes = try StableJSON.encode(value)
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

extension BuildStoreError {
    /// The HTTP answer: a lost compare-and-swap, a build still uploading or a move refused for its
    /// signature (the channel's state decides) is `409`, an unknown build `404`, a store that
    /// does not answer `503` (try again).
    var http: HTTPError {
        switch self {
        case .conflict, .buildIncomplete, .unsignedMove, .staleSignature: HTTPError(.conflict, message: description)
        case .unknownBuild: HTTPError(.notFound, message: description)
        case .unavailable: HTTPError(.serviceUnavailable, headers: [.retryAfter: "5"], message: description)
        }
    }
}

extension TesseraError {
    /// Bad input is the client's fault (`400`, or `413` past a limit); anything else is the server's.
    var http: HTTPError {
        switch kind {
        case .invalidInput, .configuration, .untrusted: HTTPError(.badRequest, message: description)
        case .limitExceeded: HTTPError(.contentTooLarge, message: description)
        default: HTTPError(.internalServerError, message: description)
        }
    }
}

/// Runs `body`, turning build-store and Tessera errors into HTTP errors with their message.
func answering<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as BuildStoreError {
        throw error.http
    } catch let error as TesseraError {
        throw error.http
    }
}
