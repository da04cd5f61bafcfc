import ArgumentParser
import Foundation
import TesseraCore

/// `IN OUT` or `IN... FOLDER`, as `cp` takes them: what `convert` and `downscale` make from
/// each input. With one input, no `--format`, and a destination that is not a folder (and does
/// not end in `/`) the destination is the output file, whose extension picks the format. Otherwise the
/// destination is a folder (made if missing) and each input becomes `FOLDER/NAME.EXT`, EXT being
/// `--format` or else the input's own extension. Two inputs that would write one file are
/// refused before anything is written.
struct FileTargets {
    let pairs: [(input: String, output: String)]

    init(_ paths: [String], format: String?) throws(ValidationError) {
        guard paths.count >= 2, let destination = paths.last else {
            throw ValidationError("give an input and an output: IN OUT, or IN... FOLDER")
        }
        if let format, !["png", "jpg", "jpeg", "webp", "bitmap"].contains(format) {
            throw ValidationError("--format is png, jpg, webp or bitmap")
        }
        let inputs = Array(paths.dropLast())
        var isFolder: ObjCBool = false
        let existingFolder = FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder) && isFolder.boolValue
        if inputs.count == 1, format == nil, !existingFolder, !destination.hasSuffix("/") {
            pairs = [(inputs[0], destination)]
            return
        }
        var owners: [String: String] = [:]
        var made: [(String, String)] = []
        for input in inputs {
            let name = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
            let ext = format ?? (input as NSString).pathExtension.lowercased()
            let output = (destination as NSString).appendingPathComponent("\(name).\(ext)")
            if let other = owners[output] {
                throw ValidationError("\(input) and \(other) would both write \(output)")
            }
            owners[output] = input
            made.append((input, output))
        }
        pairs = made
    }

    /// Runs `make` for every pair; one that fails is reported and the others still run. Exits 2
    /// when a failure was a configuration error, 1 when any other failed.
    func forEach(_ make: (_ input: String, _ output: String) throws(TesseraError) -> Void) throws {
        var worst: Int32 = 0
        for (input, output) in pairs {
            do throws(TesseraError) {
                try make(input, output)
            } catch {
                printError("error: \(error.description)")
                worst = max(worst, error.kind == .configuration ? 2 : 1)
            }
        }
        if worst > 0 { throw ExitCode(worst) }
    }
}
