#!/usr/bin/env bash
# Regenerates Sources/REAPIMessages/Generated/ (REAPI v2, ByteStream, longrunning, google.rpc
# messages: one module both cache transports and remote execution use) and
# Sources/RemoteAPI/Generated/ (the grpc-swift-2 clients, importing those messages) from
# Sources/REAPIMessages/Protos/, which are the .proto files of the
# buildstream 2.8.1 wheel (Apache-2.0; THIRD-PARTY-NOTICES.md). The output is committed: CI never
# runs this. Needs Debian's protobuf-compiler and libprotobuf-dev (the well-known types), and the
# two plugins built from the packages Tessera resolves (about 2 minutes, once):
#   swift build -c release --package-path PLUGINS --product protoc-gen-swift             (swift-protobuf 1.39.0)
#   swift build -c release --package-path PLUGINS --product protoc-gen-grpc-swift-2      (grpc-swift-protobuf 2.4.1)
# where PLUGINS is an empty package depending on those two; pass their folder as PLUGIN_BIN.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${PLUGIN_BIN:?set PLUGIN_BIN to the folder holding protoc-gen-swift and protoc-gen-grpc-swift-2}"
protos=Sources/REAPIMessages/Protos
messages_out=Sources/REAPIMessages/Generated
out=Sources/RemoteAPI/Generated
rm -rf "$messages_out" "$out"; mkdir -p "$messages_out" "$out"
messages=(build/bazel/remote/execution/v2/remote_execution.proto build/bazel/semver/semver.proto
          google/bytestream/bytestream.proto google/longrunning/operations.proto
          google/rpc/status.proto google/rpc/code.proto)
services=(build/bazel/remote/execution/v2/remote_execution.proto google/bytestream/bytestream.proto
          google/longrunning/operations.proto)
# Package visibility: the messages are the package's (BuildCache's ActionResults, RemoteAPI's
# calls, RemoteExecution's actions), never a public API.
protoc -I "$protos" -I /usr/include --plugin=protoc-gen-swift="$PLUGIN_BIN/protoc-gen-swift" \
    --swift_out="$messages_out" --swift_opt=Visibility=Package,FileNaming=PathToUnderscores "${messages[@]}"
protoc -I "$protos" -I /usr/include --plugin=protoc-gen-grpc-swift-2="$PLUGIN_BIN/protoc-gen-grpc-swift-2" \
    --grpc-swift-2_out="$out" \
    --grpc-swift-2_opt=Visibility=Package,Server=false,Client=true,FileNaming=PathToUnderscores,ExtraModuleImports=REAPIMessages "${services[@]}"
