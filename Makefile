# The two commands the README promises, plus the benchmark.
# Each first makes sure the system codec libraries are installed; the tests also the REAPI servers.

.PHONY: samples test test-default deps test-deps dist install test-dist clean
PREFIX ?= /usr/local
# The tool's traits: off by default, so that an app depending on the package for TesseraClient
# resolves none of the build side (Package.swift); every build of the command names them.
TOOL_TRAITS = CommandLineTool,FastInflate

deps:
	@scripts/ensure-system-packages.sh

# The Remote Execution API servers the tests start (buildbox-casd, BuildGrid: a Python 3.13 venv),
# once per machine: only the tests need them, so building and releasing do not.
test-deps: deps
	@scripts/ensure-reapi-servers.sh

# Builds Tessera (release) and runs the samples pipeline (app-thinning plus sample-only settings) over Samples/ into out/samples/.
samples: deps
	swift build -c release --product tessera --traits $(TOOL_TRAITS)
	swift build -c release --product tessera-svg-worker --traits $(TOOL_TRAITS)
	.build/release/tessera run Pipelines/samples.yml --input Samples --output out/samples
	@echo "Output: out/samples/ (variants/, app/ (what stays in the app), bundles/, slices/, manifest.json, apple/ (managed asset packs), report.json, size-report.html)"

# Runs the whole test suite, in one build with both opt-in traits, so the copyleft features are
# tested with everything else: lossy PNG palettes (LossyPalette: libimagequant, GPL-3.0-or-later;
# docs/png-encoding.md) and PDF rasterising (PDFRasterizing: MuPDF, AGPL-3.0-or-later;
# docs/vectors.md). A test binary is never shipped; the `tessera` that `make samples` builds has
# neither. CI runs this one build.
test: test-deps
	swift test --disable-xctest --traits LossyPalette,PDFRasterizing

# The suite as the default build (neither trait) runs it: what differs are the refusals, which
# say which trait to build with.
test-default: test-deps
	swift test --disable-xctest --traits $(TOOL_TRAITS)

# A release: dist/tessera-VERSION-linux-ARCH.tar.gz, runs with no Swift installed (docs/releasing.md).
dist: deps
	scripts/dist.sh

# The same release binary, installed as $(PREFIX)/bin/tessera.
install: deps
	scripts/dist.sh --install $(PREFIX)

# The tarball in a minimal Debian root without Swift, building Samples/ byte-identical to the
# developer build (needs root; CI runs it after `make test`).
test-dist: dist
	scripts/test-dist.sh dist/tessera-[0-9]*-linux-$$(uname -m).tar.gz

clean:
	rm -rf .build .build-dist dist out
