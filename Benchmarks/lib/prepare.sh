# Sourced by every benchmark script: work folder, peers installed, Tessera built in release.
WORK=Benchmarks/.work
mkdir -p "$WORK"
Benchmarks/lib/ensure-peers.sh
swift build -c release --product tessera >&2
TESSERA=.build/release/tessera
