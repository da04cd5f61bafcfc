# The two commands the README promises, plus the benchmark.
# Each first makes sure the system codec libraries are installed.

.PHONY: samples test deps clean

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

clean:
	rm -rf .build out
