// swift-tools-version:6.1
import PackageDescription

/// Tessera: one module per pipeline stage, the engine in its own module, system codecs behind thin `C*` shims.
/// The folder tree under `Sources/` mirrors this list; `docs/architecture.md` explains how they meet.
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
/// The pixel modules are optimised in debug builds too: their per-pixel loops run 10–50 times
/// slower unoptimised, which made `swift test` (and a debug `tessera run`) four times slower,
/// most of it spent decoding and resampling. None of them is in `TesseraClient`'s dependencies,
/// so a package that depends on Tessera for the client never builds a target with these flags.
let pixelModule: [SwiftSetting] = strict + [.unsafeFlags(["-O"], .when(configuration: .debug))]
/// Every dependency only the build side uses (the `tessera` command, its cache, server and YAML)
/// is guarded by the trait `CommandLineTool`, which is *off* by default: an app that adds the
/// package as Xcode's "Add Package Dependencies" does (default traits) and links `TesseraClient`
/// resolves and builds swift-crypto (and its swift-asn1) alone, since SwiftPM leaves a package out
/// of resolution when every use of it is behind a disabled trait (docs/client.md#adding-it-to-an-app).
/// The tool is built with it named: `make` and `scripts/dist.sh` pass `--traits CommandLineTool,FastInflate`.
let tool = TargetDependencyCondition.when(traits: ["CommandLineTool"])

let package = Package(
    name: "Tessera",
    // The floors, package-wide as SwiftPM has them. macOS 15: the build side's `Synchronization.Mutex`.
    // iOS, tvOS, watchOS, visionOS (where only TesseraClient is built): the lowest the client's calls
    // allow, set by FileHandle's throwing read/seek/write (iOS and tvOS 13.4, watchOS 6.2); below
    // iOS 15 Xcode puts the back-deployed Swift concurrency runtime in the app
    // (docs/client.md#platforms). Not compiled here: Linux has no Apple SDK.
    platforms: [.macOS(.v15), .iOS("13.4"), .tvOS("13.4"), .watchOS("6.2"), .visionOS(.v1)],
    products: [
        .executable(name: "tessera", targets: ["tessera"]),
        // Draws SVGs for `tessera` in a process of its own, beside it in bin/ (docs/vectors.md).
        .executable(name: "tessera-svg-worker", targets: ["tessera-svg-worker"]),
        .library(name: "TesseraCore", targets: ["TesseraCore"]),
        .library(name: "JobEngine", targets: ["JobEngine"]),
        // What an app links to load tagged bundles on demand (docs/client.md).
        .library(name: "TesseraClient", targets: ["TesseraClient"]),
    ],
    traits: [
        .trait(name: "CommandLineTool",
               description: "The tessera command and everything it alone needs: pipelines, build cache, server (off by default, so an app that links TesseraClient resolves none of it; make and scripts/dist.sh turn it on)"),
        // On by default: PNG masters' image data is inflated by Intel ISA-L (libisal). Debian ships
        // ISA-L only as a shared library, so the static remote worker (scripts/build-static-worker.sh,
        // `--traits CommandLineTool`) is built without it and inflates with zlib: the same bytes.
        .trait(name: "FastInflate", description: "PNG masters' image data inflated by Intel ISA-L, twice zlib's speed (on in make's and the release's builds; without it zlib inflates, as in the static worker)"),
        // Nothing by default: the default is what an app's Xcode project resolves.
        .default(enabledTraits: []),
        // Off by default: libimagequant is GPL-3.0-or-later, so a binary built with it is GPLv3
        // (docs/png-encoding.md). `swift build --traits LossyPalette` turns on `png-palette: lossy`.
        // Both copyleft traits are parts of the command line tool, so naming one on its own
        // (`--traits LossyPalette`, which turns the default traits off) keeps the tool buildable,
        // and as fast: FastInflate too.
        .trait(name: "LossyPalette", description: "Lossy PNG palettes through libimagequant (GPL-3.0-or-later)",
               enabledTraits: ["CommandLineTool", "FastInflate"]),
        // Off by default for the same reason: MuPDF is AGPL-3.0-or-later (docs/vectors.md). SVG needs no trait.
        .trait(name: "PDFRasterizing", description: "PDF rasterisation through MuPDF (AGPL-3.0-or-later)",
               enabledTraits: ["CommandLineTool", "FastInflate"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // The build server (`tessera serve`): HTTP, its SQLite or PostgreSQL build store, logs.
        // Hummingbird without its default traits (tools 6.1 for `traits:`): swift-configuration
        // is not used and would only add build time.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The remote build cache's HTTP client (URLSession on Linux cost ~1.4 ms CPU a request).
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // Hummingbird's NIO HTTP types: `tessera serve` builds its HTTP/1 pipeline (bundles with sendfile, draining shutdown).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // The REAPI messages both remote-cache transports and remote execution use (Sources/REAPIMessages).
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // The Remote Execution API over gRPC (Sources/RemoteAPI): the remote cache and executor
        // that BuildBuddy, EngFlow, Buildbarn, NativeLink, BuildGrid and buildbox-casd speak.
        .package(url: "https://github.com/grpc/grpc-swift-2.git", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport.git", from: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf.git", from: "2.4.1"),
    ],
    targets: [
        // System libraries, found with pkg-config.
        .systemLibrary(name: "CPNG", path: "Sources/Shims/CPNG", pkgConfig: "libpng16",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CJPEG", path: "Sources/Shims/CJPEG", pkgConfig: "libjpeg",
                       providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CWebP", path: "Sources/Shims/CWebP", pkgConfig: "libwebpdemux",
                       providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGIF", path: "Sources/Shims/CGIF", pkgConfig: "libgif",
                       providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CLZMA", path: "Sources/Shims/CLZMA", pkgConfig: "liblzma",
                       providers: [.apt(["liblzma-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/Shims/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CDeflate", path: "Sources/Shims/CDeflate", pkgConfig: "libdeflate",
                       providers: [.apt(["libdeflate-dev"])]),
        // Intel ISA-L: PNG masters' image data is inflated with its igzip (twice zlib's speed, streaming),
        // with the FastInflate trait (default); zlib's inflate otherwise.
        .systemLibrary(name: "CISAL", path: "Sources/Shims/CISAL", pkgConfig: "libisal",
                       providers: [.apt(["libisal-dev"])]),
        // HEIC/HEIF masters (libheif, LGPL-3.0; HEVC through libde265).
        // libheif is loaded with dlopen at the first HEIC, not linked (Shims/CHEIF/heif_loader.c);
        // its header (libheif-dev) gives the types.
        .target(name: "CHEIF", path: "Sources/Shims/CHEIF"),
        .systemLibrary(name: "CImageQuant", path: "Sources/Shims/CImageQuant", pkgConfig: "imagequant",
                       providers: [.apt(["libimagequant-dev"])]),
        // Vector rasterisation (docs/vectors.md): librsvg + cairo for SVG (LGPL); MuPDF for PDF, linked
        // only with the PDFRasterizing trait. The C targets hold what Swift cannot: GError and
        // MuPDF's setjmp-based fz_try, the premultiplied-to-straight conversion, the render watchdog.
        .systemLibrary(name: "CMuPDF", path: "Sources/Shims/CMuPDF", pkgConfig: "mupdf",
                       providers: [.apt(["libmupdf-dev"])]),
        // librsvg is loaded with dlopen at the first SVG, not linked (Shims/CSVGRender/svg_render.c),
        // and only by tessera-svg-worker: a panic or a runaway filter in librsvg ends that process,
        // never the build (Sources/SVGWorker/main.c).
        .target(name: "CSVGRender", path: "Sources/Shims/CSVGRender"),
        .executableTarget(name: "tessera-svg-worker", dependencies: ["CSVGRender"], path: "Sources/SVGWorker"),
        // Debian 12's MuPDF is a static archive whose mupdf.pc lists what it needs only under
        // Libs.private (which SwiftPM does not read), and a C target does not autolink a
        // modulemap's `link`s: they are named here.
        .target(name: "CPDFRender", dependencies: ["CMuPDF"], path: "Sources/Shims/CPDFRender",
                linkerSettings: ["mupdf-third", "harfbuzz", "freetype", "jbig2dec", "openjp2", "mujs", "gumbo",
                                 "jpeg", "z", "m"].map { .linkedLibrary($0) }),
        // The setjmp side of libpng and libjpeg: Swift cannot survive a longjmp through its frames.
        .target(name: "CCodecGuards", dependencies: ["CPNG", "CJPEG"], path: "Sources/Shims/CCodecGuards"),
        // glibc's allocator settings (mallopt), which Swift's Glibc module does not export.
        .target(name: "CAllocator", path: "Sources/Shims/CAllocator"),

        // CRC-32 is libdeflate's on Linux; an app on Apple platforms links no libdeflate (a table there).
        .target(name: "TesseraCore",
                dependencies: [.product(name: "Crypto", package: "swift-crypto"),
                               .target(name: "CDeflate", condition: .when(platforms: [.linux]))],
                swiftSettings: strict),
        // What builds and apps must agree on: manifest, query, device classes, bundle reading.
        // No codecs, YAML or CLI: apps link it through TesseraClient. xz is liblzma on Linux only;
        // Apple platforms use the Compression framework.
        .target(name: "Delivery",
                dependencies: ["TesseraCore", .product(name: "Crypto", package: "swift-crypto"),
                               .target(name: "CLZMA", condition: .when(platforms: [.linux]))],
                swiftSettings: strict),
        // Keys, root ceremonies and manifest signing (docs/security.md): the publisher's side of
        // Delivery/Trust, which holds the verifier apps run. Used by the `tessera` command only.
        .target(name: "Signing", dependencies: ["TesseraCore", "Delivery", .product(name: "Crypto", package: "swift-crypto")],
                swiftSettings: strict),
        .target(name: "JobEngine", dependencies: ["TesseraCore"], swiftSettings: strict),
        .target(name: "BuildCache", dependencies: ["TesseraCore", "JobEngine",
                                                 .product(name: "Crypto", package: "swift-crypto"),
                                                 .product(name: "AsyncHTTPClient", package: "async-http-client", condition: tool),
                                                 .product(name: "NIOCore", package: "swift-nio", condition: tool),
                                                 .product(name: "NIOHTTP1", package: "swift-nio", condition: tool),
                                                 .product(name: "SwiftProtobuf", package: "swift-protobuf", condition: tool),
                                                 .target(name: "REAPIMessages", condition: tool)],
                swiftSettings: strict),
        // The Remote Execution API's messages (REAPI v2, ByteStream, longrunning, google.rpc),
        // generated once from Protos/ (scripts/gen-reapi.sh) for both transports: the Bazel HTTP
        // cache's ActionResults (BuildCache) and the gRPC clients (RemoteAPI).
        .target(name: "REAPIMessages",
                dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf", condition: tool)],
                exclude: ["Protos"],
                swiftSettings: strict),
        // The Remote Execution API client (docs/remote-execution.md): CAS, action cache, ByteStream
        // and Execution over grpc-swift-2; the code generated from Protos/ (scripts/gen-reapi.sh)
        // is committed. Only the command line links it: TesseraClient and the stages never build gRPC.
        .target(name: "RemoteAPI",
                dependencies: ["TesseraCore", "BuildCache", .target(name: "REAPIMessages", condition: tool),
                               .product(name: "GRPCCore", package: "grpc-swift-2", condition: tool),
                               .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport", condition: tool),
                               .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf", condition: tool),
                               .product(name: "SwiftProtobuf", package: "swift-protobuf", condition: tool)],
                swiftSettings: strict),
        // Remote execution (docs/remote-execution.md): work units built as REAPI actions by a static
        // tessera in the server's sandbox, their results adopted into the build's cache.
        .target(name: "RemoteExecution", dependencies: ["TesseraCore", "Pipeline", "BuildCache", "RemoteAPI",
                                                        .target(name: "REAPIMessages", condition: tool)],
                swiftSettings: strict),
        .target(name: "Decoding", dependencies: ["TesseraCore", "CCodecGuards", "CWebP", "CGIF", "CZlib", "CHEIF",
                                                 .target(name: "CISAL", condition: .when(traits: ["FastInflate"]))],
                swiftSettings: pixelModule),
        .target(name: "Encoding", dependencies: ["TesseraCore", "CCodecGuards", "CWebP", "CGIF", "CDeflate",
                                                 .target(name: "CImageQuant", condition: .when(traits: ["LossyPalette"]))],
                swiftSettings: pixelModule),
        .target(name: "Downscaling", dependencies: ["TesseraCore"], swiftSettings: pixelModule),
        // Not yet wired into Pipeline (issue 26): PDF/SVG → Bitmap at a display scale.
        .target(name: "Rasterizing",
                dependencies: ["TesseraCore",
                               .target(name: "CPDFRender", condition: .when(traits: ["PDFRasterizing"]))],
                swiftSettings: strict),
        // Ready-to-draw bitmaps: decoded once at build time so an app draws them without decoding.
        .target(name: "ReadyBitmaps", dependencies: ["TesseraCore"], swiftSettings: pixelModule),
        .target(name: "FrameTiming", dependencies: ["TesseraCore"], swiftSettings: strict),
        .target(name: "Packing", dependencies: ["TesseraCore", "Delivery", "CLZMA"], swiftSettings: pixelModule),
        // YAML read with file, line and key for every problem: the pipeline file and tessera.yml.
        .target(name: "YAMLReading", dependencies: ["TesseraCore", .product(name: "Yams", package: "Yams", condition: tool)], swiftSettings: strict),
        .target(name: "Slicing", dependencies: ["TesseraCore", "Delivery", "YAMLReading", .product(name: "Yams", package: "Yams", condition: tool)], swiftSettings: strict),
        .target(name: "Manifests", dependencies: ["TesseraCore", "Delivery"], swiftSettings: strict),
        // Decoders and the band downscaler under one memory model, streaming into the encoders:
        // the pipeline's downscale jobs and `tessera downscale`.
        .target(name: "StreamingDownscaling", dependencies: ["TesseraCore", "Decoding", "Downscaling", "Encoding"], swiftSettings: pixelModule),
        // Every option the pipeline file and the CLI share, declared once: name, type, default, range, help.
        .target(name: "BuildOptions",
                dependencies: ["TesseraCore", "Delivery", "Decoding", "Encoding", "Downscaling", "ReadyBitmaps",
                               "FrameTiming", "Packing", "StreamingDownscaling", "Rasterizing", "Manifests", "SizeReporting"],
                swiftSettings: strict),
        // Size reports (docs/size-report.md): per device and pack from the manifest, diffs, budgets.
        .target(name: "SizeReporting", dependencies: ["TesseraCore", "Delivery"], swiftSettings: strict),
        // Pipelines/*.yml compiled into the binary, so `tessera run app-thinning` works from any folder.
        .target(name: "BuiltInPipelines", path: "Pipelines", exclude: ["samples.yml"],
                resources: [.embedInCode("app-thinning.yml"), .embedInCode("android.yml")], swiftSettings: strict),
        .target(name: "Pipeline",
                dependencies: ["TesseraCore", "BuiltInPipelines", "Delivery", "JobEngine", "Decoding", "Encoding", "Downscaling", "ReadyBitmaps", "Packing",
                               "FrameTiming", "StreamingDownscaling", "BuildOptions", "Rasterizing", "SizeReporting",
                               "Slicing", "Manifests", "YAMLReading", .product(name: "Yams", package: "Yams", condition: tool), "HTTPRequests"],
                swiftSettings: strict),
        // Whole-answer HTTP requests for the command line's client calls (AsyncHTTPClient, not
        // URLSession: FoundationNetworking would load libcurl's libraries at every start).
        .target(name: "HTTPRequests",
                dependencies: [.product(name: "AsyncHTTPClient", package: "async-http-client", condition: tool),
                               .product(name: "NIOCore", package: "swift-nio", condition: tool),
                               .product(name: "NIOHTTP1", package: "swift-nio", condition: tool)],
                swiftSettings: strict),
        // Published builds and channels (SQLite, or PostgreSQL for several instances), and the content-addressed blob folder.
        .target(name: "PublishedBuilds",
                dependencies: ["TesseraCore", "Delivery", .product(name: "GRDB", package: "GRDB.swift", condition: tool),
                               .product(name: "PostgresNIO", package: "postgres-nio", condition: tool),
                               .product(name: "Logging", package: "swift-log", condition: tool)],
                swiftSettings: strict),
        // `tessera serve`: the HTTP service over the build store; `publish`'s client side.
        .target(name: "Serving",
                dependencies: ["TesseraCore", "Delivery", "Manifests", "PublishedBuilds", "CZlib", "HTTPRequests",
                               .product(name: "Hummingbird", package: "hummingbird", condition: tool),
                               .product(name: "HummingbirdCore", package: "hummingbird", condition: tool),
                               .product(name: "NIOCore", package: "swift-nio", condition: tool),
                               .product(name: "NIOHTTP1", package: "swift-nio", condition: tool),
                               .product(name: "NIOPosix", package: "swift-nio", condition: tool),
                               .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: tool),
                               .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras", condition: tool),
                               .product(name: "Logging", package: "swift-log", condition: tool)],
                swiftSettings: strict),
        .executableTarget(name: "tessera",
                          dependencies: ["Pipeline", "BuildCache", "TesseraCore", "Delivery", "JobEngine", "Decoding", "Encoding", "Downscaling",
                                         "StreamingDownscaling", "BuildOptions", "Rasterizing", "SizeReporting",
                                         "Serving", "PublishedBuilds", "BuiltInPipelines", "Signing", "HTTPRequests",
                                         "RemoteAPI", "RemoteExecution", .product(name: "Logging", package: "swift-log", condition: tool),
                                         "ReadyBitmaps", "FrameTiming", "Slicing", "Packing", "Manifests", "CPNG", "CJPEG", "CWebP",
                                         "CGIF", "CLZMA", "CDeflate", "CAllocator",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser", condition: tool)],
                          swiftSettings: strict),

        // The app-side library: Delivery and swift-crypto only, so an iOS app can depend on it.
        .target(name: "TesseraClient",
                dependencies: ["Delivery", "TesseraCore", .product(name: "Crypto", package: "swift-crypto")],
                swiftSettings: strict),
        // Benchmarks/rasterize.sh's driver for the Rasterizing module (not shipped).
        .executableTarget(name: "rasterize", dependencies: ["Rasterizing", "Encoding", "TesseraCore"],
                          path: "Benchmarks/Rasterize", swiftSettings: strict),
        .executableTarget(name: "client-demo", dependencies: ["TesseraClient"], path: "Samples/ClientDemo",
                          swiftSettings: strict),

        // Real servers (nginx, PostgreSQL) the tests start on loopback ports; used by test targets only.
        .target(name: "TestServers", path: "Tests/TestServers", swiftSettings: strict),
        // What several test targets share (a temporary folder laid out from the corpus), written once.
        .target(name: "TestSupport", dependencies: ["TesseraCore", "CZlib"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "TestServersTests", dependencies: ["TestServers"], swiftSettings: strict),

        .testTarget(name: "TesseraClientTests",
                    dependencies: ["TesseraClient", "Delivery", "Pipeline", "TesseraCore", "TestServers", "tessera", "client-demo", "Signing"],
                    swiftSettings: strict),
        // One test target per module with logic, holding the tests that exercise that module alone;
        // PipelineTests, BuildCacheTests and the client's hold the ones that build across modules.
        .testTarget(name: "DeliveryTests", dependencies: ["Delivery", "TesseraCore"], swiftSettings: strict),
        .testTarget(name: "SigningTests", dependencies: ["Signing", "Delivery", "TesseraCore", .product(name: "Crypto", package: "swift-crypto")],
                    swiftSettings: strict),
        .testTarget(name: "SlicingTests", dependencies: ["Slicing", "Delivery", "TesseraCore", "TestSupport", "YAMLReading"], swiftSettings: strict),
        .testTarget(name: "ManifestsTests", dependencies: ["Manifests", "Delivery", "TesseraCore", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "PackingTests", dependencies: ["Packing", "Delivery", "TesseraCore", "TestSupport", "TestServers"], swiftSettings: strict),
        .testTarget(name: "PublishedBuildsTests", dependencies: ["PublishedBuilds", "TesseraCore", "TestServers", "Delivery",
                                                                 .product(name: "GRDB", package: "GRDB.swift", condition: tool),
                                                                 .product(name: "PostgresNIO", package: "postgres-nio", condition: tool),
                                                                 .product(name: "Logging", package: "swift-log", condition: tool)],
                    swiftSettings: strict),
        .testTarget(name: "ServingTests",
                    dependencies: ["Serving", "PublishedBuilds", "Delivery", "Manifests", "Packing", "TesseraCore", "TestServers", "Signing",
                                   .product(name: "Logging", package: "swift-log", condition: tool),
                                   .product(name: "NIOPosix", package: "swift-nio", condition: tool),
                                   .product(name: "HummingbirdTesting", package: "hummingbird", condition: tool)],
                    swiftSettings: strict),

        // Test fixtures live in Tests/Fixtures and are found from the test sources' paths.
        .testTarget(name: "JobEngineTests", dependencies: ["JobEngine", "TesseraCore"], swiftSettings: strict),
        .testTarget(name: "TesseraCoreTests", dependencies: ["TesseraCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "YAMLReadingTests", dependencies: ["YAMLReading", "TesseraCore"], swiftSettings: strict),
        .testTarget(name: "BuildOptionsTests", dependencies: ["BuildOptions", "Encoding", "TesseraCore"], swiftSettings: strict),
        .testTarget(name: "SizeReportingTests", dependencies: ["SizeReporting", "Delivery", "TesseraCore"], swiftSettings: strict),
        .testTarget(name: "StreamingDownscalingTests",
                    dependencies: ["StreamingDownscaling", "Decoding", "Downscaling", "Encoding", "TesseraCore", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "HTTPRequestsTests", dependencies: ["HTTPRequests", "TestServers"], swiftSettings: strict),
        .testTarget(name: "BuildCacheTests",
                    dependencies: ["BuildCache", "Pipeline", "JobEngine", "TesseraCore", "Manifests", "tessera", "TestServers", "TestSupport",
                                   .target(name: "REAPIMessages", condition: tool)],
                    swiftSettings: strict),
        // Remote execution against real REAPI servers (buildbox-casd's sandbox, BuildGrid's workers).
        .testTarget(name: "RemoteExecutionTests",
                    dependencies: ["RemoteExecution", "RemoteAPI", "Pipeline", "BuildCache", "JobEngine", "TesseraCore",
                                   "TestServers", "TestSupport", "tessera", .target(name: "REAPIMessages", condition: tool),
                                   .product(name: "SwiftProtobuf", package: "swift-protobuf", condition: tool)],
                    swiftSettings: strict),
        // The gRPC remote cache against real REAPI servers (buildbox-casd, BuildGrid) and nginx.
        .testTarget(name: "RemoteAPITests",
                    dependencies: ["RemoteAPI", "BuildCache", "Pipeline", "JobEngine", "TesseraCore", "tessera", "TestServers", "TestSupport",
                                   .product(name: "Crypto", package: "swift-crypto"),
                                   .product(name: "GRPCCore", package: "grpc-swift-2", condition: tool),
                                   .target(name: "REAPIMessages", condition: tool),
                                   .product(name: "SwiftProtobuf", package: "swift-protobuf", condition: tool)],
                    swiftSettings: strict),
        // One test target per codec module, each depending on its module and what checks it
        // (a decoder to read an encoder's output back, an encoder to make a decoder's input).
        .target(name: "CodecFixtures", dependencies: ["Decoding", "TesseraCore"], path: "Tests/CodecFixtures", swiftSettings: strict),
        .testTarget(name: "DecodingTests", dependencies: ["Decoding", "Encoding", "TesseraCore", "CodecFixtures", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "EncodingTests", dependencies: ["Encoding", "Decoding", "TesseraCore", "CodecFixtures"], swiftSettings: strict),
        .testTarget(name: "DownscalingTests", dependencies: ["Downscaling", "Decoding", "TesseraCore", "CodecFixtures"], swiftSettings: strict),
        .testTarget(name: "ReadyBitmapsTests", dependencies: ["ReadyBitmaps", "Decoding", "TesseraCore", "CodecFixtures"], swiftSettings: strict),
        .testTarget(name: "FrameTimingTests", dependencies: ["FrameTiming", "Decoding", "Encoding", "TesseraCore", "CodecFixtures"],
                    swiftSettings: strict),
        .testTarget(name: "RasterizingTests",
                    dependencies: ["Rasterizing", "TesseraCore", "Decoding", "CZlib", "TestSupport", "tessera-svg-worker"],
                    swiftSettings: strict),
        .testTarget(name: "PipelineTests",
                    dependencies: ["Pipeline", "BuiltInPipelines", "Delivery", "Slicing", "Manifests", "JobEngine", "TesseraCore", "Decoding", "Encoding", "TestServers",
                                   "TestSupport", "tessera", "tessera-svg-worker", "BuildOptions", "Rasterizing", "SizeReporting", "CAllocator"],
                    swiftSettings: strict),
    ]
)
