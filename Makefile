# The two commands the README promises, plus the benchmark.
# Each first makes sure the system codec libraries are installed.

.PHONY: samples test test-palette deps clean

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

# The lossy-palette tests in a build with the LossyPalette trait (libimagequant, GPL-3.0-or-later;
# docs/png-encoding.md): the default build leaves it out, so `make test` runs only the refusal.
test-palette: deps
	swift test --disable-xctest --traits LossyPalette --filter 'PNGPaletteTests|PaletteBuildTests|PipelineFileReaderTests|InspectConvertCommandTests'

clean:
	rm -rf .build out
