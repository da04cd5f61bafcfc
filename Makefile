# The two commands the README promises, plus the benchmark.
# Each first makes sure the system codec libraries are installed.

.PHONY: samples test test-palette test-traits deps clean

deps:
	@scripts/ensure-system-packages.sh

# Builds Tessera (release) and runs the samples pipeline (app-thinning plus sample-only settings) over Samples/ into out/samples/.
samples: deps
	swift build -c release --product tessera
	.build/release/tessera run Pipelines/samples.yml --input Samples --output out/samples
	@echo "Output: out/samples/ (variants/, bundles/, slices/, manifest.json, OnDemandResources.plist, apple/, background-assets/, report.json)"

# Runs the whole test suite.
test: deps
	swift test --disable-xctest

# The tests of the opt-in copyleft features, in one build with both traits: lossy PNG palettes
# (LossyPalette: libimagequant, GPL-3.0-or-later; docs/png-encoding.md) and PDF rasterising
# (PDFRasterizing: MuPDF, AGPL-3.0-or-later; docs/vectors.md). The default build leaves both out,
# so `make test` runs only their refusals.
test-traits: deps
	swift test --disable-xctest --traits LossyPalette,PDFRasterizing --filter 'PNGPaletteTests|PaletteBuildTests|PipelineFileReaderTests|InspectConvertCommandTests|RasterizingTests'

test-palette: test-traits

clean:
	rm -rf .build out
