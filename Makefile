# satlab — the two commands of a new user are `make run` and `make test`.
# Both install what is missing (idempotently), build, then run.
#
#   make run          the lab on http://127.0.0.1:8000
#   make test         every test: codec (each GF(2^8) kernel, ASan+UBSan,
#                     fuzz corpora), shared vectors, WebAssembly build
#   make bench        every benchmark (JSON lines); make bench-codec: the codec's
#   make fuzz         libFuzzer on the decoder for FUZZ_SECONDS (clang)
#   make deps         only the installation step

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

BUILD := build
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 60

# Debian packages the build and the tests need (checked one by one, so a
# machine that has them all is not touched).
APT_PACKAGES := build-essential cmake ninja-build python3 emscripten clang \
	libclang-rt-14-dev iperf3

# The GF(2^8) kernels `make bench-codec` asks for, best first. The benchmark
# prints nothing for a kernel this CPU lacks.
KERNELS := gfni avx2 ssse3 scalar
DISABLE_gfni :=
DISABLE_avx2 := gfni
DISABLE_ssse3 := gfni,avx2
DISABLE_scalar := gfni,avx2,ssse3

.PHONY: help deps build build-native build-asan build-wasm test test-codec \
	test-asan test-vectors test-wasm bench bench-codec fuzz run clean

help:
	@sed -n '1,11p' Makefile

deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	command -v node >/dev/null || missing="$$missing nodejs"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		apt-get update -q; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi
	@cd codec/wasm && { [ -d node_modules ] && npm ls --silent >/dev/null 2>&1 || npm ci --no-audit --no-fund; }

build: build-native build-wasm

build-native: deps
	cmake -S codec -B $(BUILD)/codec -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD)/codec --parallel $(JOBS)

build-asan: deps
	cmake -S codec -B $(BUILD)/codec-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DSWF_SANITIZE=ON >/dev/null
	cmake --build $(BUILD)/codec-asan --parallel $(JOBS)

build-wasm: deps
	codec/wasm/build.sh

test: test-vectors test-codec test-asan test-wasm
	@echo "make test: all passed"

test-codec: build-native
	ctest --test-dir $(BUILD)/codec --output-on-failure --parallel $(JOBS)

test-asan: build-asan
	ASAN_OPTIONS=detect_leaks=1 ctest --test-dir $(BUILD)/codec-asan --output-on-failure \
		--parallel $(JOBS)

# The committed vectors are exactly what the independent Python references
# generate.
test-vectors:
	@out=$$(mktemp -d); trap 'rm -rf "$$out"' EXIT; \
	python3 tests/vectors/gen_rlc.py --out "$$out/rlc"; \
	python3 tests/vectors/gen_channel.py --out "$$out/channel"; \
	diff -r "$$out/rlc" tests/vectors/rlc >/dev/null && diff -r "$$out/channel" tests/vectors/channel >/dev/null \
		|| { echo "tests/vectors differ from what tests/vectors/gen_*.py generate" >&2; exit 1; }; \
	echo "test-vectors: $$(ls tests/vectors/rlc | wc -l) RLC and $$(ls tests/vectors/channel | wc -l) channel vectors match their generators"

test-wasm: build-wasm
	cd codec/wasm && npm test

bench: bench-codec

bench-codec: build-native build-wasm
	@$(foreach k,$(KERNELS),SWF_DISABLE_CPU_FEATURES="$(DISABLE_$(k))" \
		$(BUILD)/codec/bench/bench_codec --kernel $(k);)
	@node codec/wasm/bench.mjs

fuzz: deps
	CC=clang cmake -S codec -B $(BUILD)/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DSWF_SANITIZE=ON -DSWF_LIBFUZZER=ON >/dev/null
	cmake --build $(BUILD)/fuzz --parallel $(JOBS) --target fuzz_decoder
	mkdir -p $(BUILD)/fuzz/corpus-decoder
	$(BUILD)/fuzz/fuzz/fuzz_decoder -max_total_time=$(FUZZ_SECONDS) \
		$(BUILD)/fuzz/corpus-decoder codec/fuzz/decoder/corpus

run: build
	@echo "The lab's backend is not built yet: see README.md for what runs today."

clean:
	rm -rf $(BUILD)
