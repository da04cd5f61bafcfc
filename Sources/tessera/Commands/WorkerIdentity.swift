import CDeflate
import CGIF
import CJPEG
import CPNG
import CWebP
import Foundation

/// What a remote worker must be to build the same bytes as this tessera: the same release and
/// commit, and the same versions of the codecs whose output lands in files (a static worker
/// carries the archives of the machine it was built on). Cache keys hold stage versions, not
/// these, so a worker of another build would make other bytes under the same keys: `run
/// --remote-executor` sends this in every action's environment (so it is part of the action's
/// digest too), and a worker that is something else refuses the action (`mismatchExit`).
enum WorkerIdentity {
    static var current: String {
        let jpeg = Int(LIBJPEG_TURBO_VERSION_NUMBER)
        let webp = Int(WebPGetDecoderVersion())
        return ["tessera \(ReleaseVersion.description)",
                "libpng \(String(cString: png_get_libpng_ver(nil)))",
                "libjpeg-turbo \(jpeg / 1_000_000).\(jpeg / 1000 % 1000).\(jpeg % 1000)",
                "libwebp \(webp >> 16).\((webp >> 8) & 0xff).\(webp & 0xff)",
                "giflib \(GIFLIB_MAJOR).\(GIFLIB_MINOR).\(GIFLIB_RELEASE)",
                "libdeflate \(LIBDEFLATE_VERSION_STRING)"].joined(separator: "; ")
    }

    /// The environment variable an action carries it in.
    static let variable = "TESSERA_EXPECTED_WORKER"

    /// A worker's exit status when it is not the build the client expects (EX_CONFIG).
    static let mismatchExit: Int32 = 78
}
