// `rasterize`: the benchmark's driver for the Rasterizing module (Benchmarks/rasterize.sh), until
// vectors are wired into the pipeline and `tessera convert` (issue 26). Renders each IN at a scale
// or an exact size and writes it as PNG, the way the reference tools are run:
//
//   rasterize (--scale S[,S...] | --size WxH) IN OUT.png [IN OUT.png ...]
//
// With several scales (`--scale 1,2,3`, as a build draws each file once per scale, in one
// process), each render is written to OUT with `@Sx` before `.png`.
import Encoding
import Foundation
import Rasterizing
import TesseraCore

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: rasterize (--scale S[,S...] | --size WxH) IN OUT.png [IN OUT.png ...]\n".utf8))
    exit(64)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 4, arguments.count % 2 == 0 else { usage() }
var scales: [RenderScale] = []
switch arguments.removeFirst() {
case "--scale":
    let factors = arguments.removeFirst().split(separator: ",").map { Double($0) }
    guard !factors.isEmpty, factors.allSatisfy({ $0 != nil }) else { usage() }
    scales = factors.map { .factor($0!) }
case "--size":
    let parts = arguments.removeFirst().split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2 else { usage() }
    scales = [.pixels(width: parts[0], height: parts[1])]
default:
    usage()
}

do {
    for pair in stride(from: 0, to: arguments.count, by: 2) {
        let input = arguments[pair], output = arguments[pair + 1]
        let format: VectorFormat = input.lowercased().hasSuffix(".pdf") ? .pdf : .svg
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: input)))
        let document = try VectorDocument(bytes: bytes, format: format, path: input)
        for scale in scales {
            var file = output
            if scales.count > 1, case .factor(let factor) = scale {
                file = String(output.dropLast(4)) + "@\(Int(factor))x.png"
            }
            try AtomicFile.write(try PNGEncoder(effort: .fast).encode(try document.render(scale: scale), iccProfile: nil), to: file)
        }
    }
} catch {
    FileHandle.standardError.write(Data("rasterize: \(error)\n".utf8))
    exit(1)
}
