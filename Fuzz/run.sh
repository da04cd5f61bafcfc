#!/usr/bin/env bash
# Builds one libFuzzer harness for the bundle reader and runs it.
#
#   Fuzz/run.sh TARGET SECONDS     TARGET: BundleStreamReader | BundleFile
#
# The harness, TesseraCore, Delivery and Packing (with the CLZMA and CDeflate shims) are compiled with `swiftc -sanitize=fuzzer,address`
# (libFuzzer and AddressSanitizer ship with the Swift toolchain on Linux); swift-crypto comes
# uninstrumented from the package's own debug build. Inputs libFuzzer finds go to
# .build/fuzz/corpus-TARGET; the committed seeds in Fuzz/corpus are read, never written.
# A crash leaves its reproducer in .build/fuzz/ and exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:?usage: Fuzz/run.sh BundleStreamReader|BundleFile SECONDS}
seconds=${2:?usage: Fuzz/run.sh BundleStreamReader|BundleFile SECONDS}
harness=Fuzz/Harnesses/${target}Fuzz.swift
[ -f "$harness" ] || { echo "Fuzz/run.sh: no harness $harness" >&2; exit 2; }

# swift-crypto's objects and module, from the ordinary debug build.
swift build --target Crypto >&2
bin=$(swift build --show-bin-path)
out=.build/fuzz
mkdir -p "$out/modules"

crypto_objects=()
while IFS= read -r object; do crypto_objects+=("$object"); done < <(
    find "$bin/Crypto.build" "$bin/CryptoBoringWrapper.build" "$bin/CCryptoBoringSSL.build" \
         "$bin/CCryptoBoringSSLShims.build" -name '*.o' | sort)
crypto_flags=(-I "$bin/Modules" -I "$bin")
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
    swiftc "${sanitize[@]}" -module-name "$name" -wmo -c "$@" -o "$out/modules/$name.o" \
        -emit-module -emit-module-path "$out/modules/$name.swiftmodule" \
        -I "$out/modules" -I Sources/Shims/CLZMA -I Sources/Shims/CDeflate "${crypto_flags[@]}"
}
module TesseraCore Sources/TesseraCore/*.swift
# The bundle reader lives in Delivery, the module the build side and apps share.
module Delivery Sources/Delivery/*.swift
# BundleVerifier (which the BundleFile harness also drives) is build-side, in Packing.
module Packing Sources/Packing/*.swift
swiftc "${sanitize[@]}" -module-name "${target}Fuzz" "$harness" -o "$out/$target" \
    -I "$out/modules" -I Sources/Shims/CLZMA -I Sources/Shims/CDeflate "${crypto_flags[@]}" \
    "$out/modules/TesseraCore.o" "$out/modules/Delivery.o" "$out/modules/Packing.o" "${crypto_objects[@]}" -llzma -ldeflate

corpus=$out/corpus-$target
mkdir -p "$corpus"
# Scratch files the BundleFile harness writes; tmpfs keeps fsync cheap.
scratch=/dev/shm
[ -d "$scratch" ] && [ -w "$scratch" ] || scratch=${TMPDIR:-/tmp}
TESSERA_FUZZ_SCRATCH=$scratch "$out/$target" "$corpus" Fuzz/corpus \
    -dict=Fuzz/bundle.dict -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=20 \
    -artifact_prefix="$out/$target-" -print_final_stats=1
