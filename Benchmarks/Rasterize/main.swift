// `rasterize`: the benchmark's driver for the Rasterizing module (Benchmarks/rasterize.sh), until
// vectors are wired into the pipeline and `tessera convert` (issue 26). Renders each IN at a scale
// or an exact size and writes it as PNG, the way the reference tools are run:
//
//   rasterize (--scale S | --size WxH) IN OUT.png [IN OUT.png ...]
import Encoding
import Foundation
import Rasterizing
import TesseraCore

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: rasterize (--scale S | --size WxH) IN OUT.png [IN OUT.png ...]\n".utf8))
    exit(64)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 4, arguments.count % 2 == 0 else { usage() }
let scale: RenderScale
switch arguments.removeFirst() {
case "--scale":
    guard let factor = Double(arguments.removeFirst()) else { usage() }
    scale = .factor(factor)
case "--size":
    let parts = arguments.removeFirst().split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2 else { usage() }
    scale = .pixels(width: parts[0], height: parts[1])
default:
    usage()
}

do {
    for pair in stride(from: 0, to: arguments.count, by: 2) {
        let input = arguments[pair], output = arguments[pair + 1]
        let format: VectorFormat = input.lowercased().hasSuffix(".pdf") ? .pdf : .svg
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: input)))
        let bitmap = try VectorDocument(bytes: bytes, format: format, path: input).render(scale: scale)
        try AtomicFile.write(try PNGEncoder(effort: .fast).encode(bitmap, iccProfile: nil), to: output)
    }
} catch {
    FileHandle.standardError.write(Data("rasterize: \(error)\n".utf8))
    exit(1)
}
