#!/usr/bin/env bash
# Builds one libFuzzer harness and runs it.
#
#   Fuzz/run.sh TARGET SECONDS     TARGET: BundleStreamReader | BundleFile | ManifestDecode | RequestHeadScan | CatalogReader | SignatureFile | PDFAnswer
#
# The harness, TesseraCore, Delivery and Packing (with the CLZMA and CDeflate shims) are compiled with `swiftc -sanitize=fuzzer,address`
# (libFuzzer and AddressSanitizer ship with the Swift toolchain on Linux); swift-crypto comes
# uninstrumented from the package's own debug build. Inputs libFuzzer finds go to
# .build/fuzz/corpus-TARGET; the committed seeds in Fuzz/corpus are read, never written.
# A crash leaves its reproducer in .build/fuzz/ and exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: Fuzz/run.sh BundleStreamReader|BundleFile|ManifestDecode|RequestHeadScan|CatalogReader|SignatureFile|PDFAnswer SECONDS"
target=${1:?$usage}
seconds=${2:?$usage}
harness=Fuzz/Harnesses/${target}Fuzz.swift
[ -f "$harness" ] || { echo "Fuzz/run.sh: no harness $harness" >&2; exit 2; }

# swift-crypto's and Yams's objects and modules, from the debug build `make test` made (its
# traits: the build side is off by default, and the same traits rebuild nothing).
traits=LossyPalette,PDFRasterizing
swift build --traits "$traits" --target Crypto >&2
[ "$target" = CatalogReader ] && swift build --traits "$traits" --target Yams >&2
bin=$(swift build --traits "$traits" --show-bin-path)
out=.build/fuzz
modules="$out/modules-$target"   # one folder a target: runs of different targets at once do not share objects
mkdir -p "$modules"

crypto_objects=()
while IFS= read -r object; do crypto_objects+=("$object"); done < <(
    find "$bin/Crypto.build" "$bin/CryptoBoringWrapper.build" "$bin/CCryptoBoringSSL.build" \
         "$bin/CCryptoBoringSSLShims.build" -name '*.o' | sort)
# Not -I "$bin": clang would read every module map in its subfolders when a name is not found,
# and grpc-swift-protobuf builds CGRPCProtobuf twice there (for the package and for its tool).
crypto_flags=(-I "$bin/Modules")
for map in "$bin"/CCryptoBoringSSL.build/module.modulemap "$bin"/CCryptoBoringSSLShims.build/module.modulemap; do
    [ -f "$map" ] && crypto_flags+=(-Xcc "-fmodule-map-file=$map")
done
for include in .build/checkouts/swift-crypto/Sources/CCryptoBoringSSL/include \
               .build/checkouts/swift-crypto/Sources/CCryptoBoringSSLShims/include; do
    [ -d "$include" ] && crypto_flags+=(-Xcc "-I$include")
done

sanitize=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -Onone -use-ld=lld -package-name Tessera)
module() {  # module NAME SOURCES...
    local name=$1; shift
    swiftc "${sanitize[@]}" -module-name "$name" -wmo -c "$@" -o "$modules/$name.o" \
        -emit-module -emit-module-path "$modules/$name.swiftmodule" \
        -I "$modules" -I Sources/Shims/CLZMA -I Sources/Shims/CDeflate "${crypto_flags[@]}"
}
corpus=$out/corpus-$target
mkdir -p "$corpus"
extra=()
asan=${ASAN_OPTIONS:-}
case $target in
    RequestHeadScan|PDFAnswer)
        # The reader alone, compiled from the files Fuzz/standalone-sources.txt lists into the
        # harness's own module: it needs nothing else (no NIO or Hummingbird for the request
        # scanner, no worker process to feed the PDF answer reader). `make test` type-checks the
        # same lists (FuzzHarnessTests), so a file the reader comes to need fails there first.
        read -ra files <<< "$(sed -n "s/^$target: //p" Fuzz/standalone-sources.txt)"
        swiftc "${sanitize[@]}" -module-name "${target}Fuzz" "$harness" "${files[@]}" -o "$out/$target"
        if [ "$target" = RequestHeadScan ]; then
            seeds=Fuzz/seeds/http; dict=Fuzz/http.dict; max_len=20000
        else
            seeds=Fuzz/seeds/pdf-answer; dict=Fuzz/http.dict; max_len=8192
        fi ;;
    CatalogReader)
        # The catalog reader is in Slicing, with YAMLReading; Yams (and its C parser) comes
        # uninstrumented from the debug build, as swift-crypto does.
        yams_objects=()
        while IFS= read -r object; do yams_objects+=("$object"); done < <(find "$bin/Yams.build" "$bin/CYaml.build" -name '*.o' | sort)
        yams_flags=(-Xcc "-fmodule-map-file=.build/checkouts/Yams/Sources/CYaml/include/module.modulemap"
                    -Xcc "-I.build/checkouts/Yams/Sources/CYaml/include")
        module TesseraCore Sources/TesseraCore/*.swift
        module Delivery $(find Sources/Delivery -name '*.swift' | sort)
        module YAMLReading Sources/YAMLReading/*.swift "${yams_flags[@]}"
        module Slicing $(find Sources/Slicing -name '*.swift' | sort) "${yams_flags[@]}"
        swiftc "${sanitize[@]}" -module-name "${target}Fuzz" "$harness" -o "$out/$target" \
            -I "$modules" -I Sources/Shims/CLZMA -I Sources/Shims/CDeflate "${crypto_flags[@]}" "${yams_flags[@]}" \
            "$modules/TesseraCore.o" "$modules/Delivery.o" "$modules/YAMLReading.o" "$modules/Slicing.o" \
            "${crypto_objects[@]}" "${yams_objects[@]}" -llzma -ldeflate
        seeds=Fuzz/seeds/catalog; dict=Fuzz/json.dict; max_len=16384
        # Foundation (FileManager, Data) leaks a few bytes an input on Linux, which is not ours to
        # find here; a 4 KiB leak a read in `contents(atPath:)` was, and the reader no longer uses it.
        extra=(-detect_leaks=0); asan=detect_leaks=0 ;;
    *)
        module TesseraCore Sources/TesseraCore/*.swift
        # The bundle reader and the manifest model live in Delivery, the module the build side and apps share.
        module Delivery $(find Sources/Delivery -name '*.swift' | sort)
        # BundleVerifier (which the BundleFile harness also drives) is build-side, in Packing.
        module Packing Sources/Packing/*.swift
        swiftc "${sanitize[@]}" -module-name "${target}Fuzz" "$harness" -o "$out/$target" \
            -I "$modules" -I Sources/Shims/CLZMA -I Sources/Shims/CDeflate "${crypto_flags[@]}" \
            "$modules/TesseraCore.o" "$modules/Delivery.o" "$modules/Packing.o" "${crypto_objects[@]}" -llzma -ldeflate
        if [ "$target" = ManifestDecode ]; then
            seeds=Fuzz/seeds/manifest; dict=Fuzz/json.dict; max_len=65536
        elif [ "$target" = SignatureFile ]; then
            seeds=Fuzz/seeds/signature; dict=Fuzz/json.dict; max_len=65536
            # FoundationEssentials' JSONDecoder leaks some 50 bytes decoding a base64 `Data` field
            # on Linux (every envelope has two), which is not ours to find here.
            extra=(-detect_leaks=0); asan=detect_leaks=0
        else
            seeds=Fuzz/corpus; dict=Fuzz/bundle.dict; max_len=65536
        fi ;;
esac

# Scratch files the BundleFile harness writes; tmpfs keeps fsync cheap.
scratch=/dev/shm
[ -d "$scratch" ] && [ -w "$scratch" ] || scratch=${TMPDIR:-/tmp}
ASAN_OPTIONS=$asan TESSERA_FUZZ_SCRATCH=$scratch "$out/$target" "$corpus" "$seeds" \
    -dict="$dict" -max_total_time="$seconds" -max_len="$max_len" -rss_limit_mb=2048 -timeout=20 \
    -artifact_prefix="$out/$target-" -print_final_stats=1 "${extra[@]}"
