# Sourced by every benchmark script: work folder, peers installed, Tessera built in release.
# TESSERA_BINARY=PATH measures that release binary instead of building one here (another
# checkout's, or an earlier commit's for before/after).
WORK=Benchmarks/.work
mkdir -p "$WORK"
Benchmarks/lib/ensure-peers.sh
if [ -n "${TESSERA_BINARY:-}" ]; then
    TESSERA=$TESSERA_BINARY
else
    swift build -c release --product tessera --traits CommandLineTool,FastInflate >&2
    TESSERA=.build/release/tessera
fi
