# satlab — the two commands of a new user are `make run` and `make test`.
# Both install what is missing (idempotently), build, then run.
#
#   make run          the lab on http://127.0.0.1:8000: the web UI and the API
#                     (/api/docs); runs need root
#   make check        the fast first stage (a few minutes): lint, type checks and the
#                     unit tests that need no root, no namespaces and no browser
#   make test         every test: codec (each GF(2^8) kernel, ASan+UBSan,
#                     fuzz corpora), shared vectors, WebAssembly build, the
#                     emulated path (satlink, swf-tunnel) in namespaces, the
#                     backend (real runs), the browser labs (Playwright), the
#                     instructor's stack (Docker: build, compose up, a browser)
#   make bench        every benchmark (JSON lines): bench-codec, bench-datapath,
#                     bench-engine, bench-frontend
#   make fuzz         libFuzzer on each fuzz target for FUZZ_SECONDS (clang),
#                     Hypothesis on the scenario parser as long
#   make soak         200 short runs through the API, with bad bodies, cancels
#                     and SIGKILLs of the backend; then nothing may be left
#   make soak-classroom  30 students and the instructor for 10 minutes, with
#                     attacks interleaved; then every quota must have held
#   make deps         only the installation step

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

BUILD := build
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := decoder tunnel link

# Python 3.12 (aiopquic needs it) for backend/.venv, which also holds the
# test tooling: pyenv's 3.12, or one on PATH.
PYTHON312 := $(shell { pyenv prefix 3.12 2>/dev/null | sed 's|$$|/bin/python3.12|'; \
	command -v python3.12; } 2>/dev/null | head -n 1)
VENV := backend/.venv

# Debian packages the build and the tests need (checked one by one, so a
# machine that has them all is not touched). tshark reads the tools'
# captures; its debconf question (non-root capture) keeps its default, no.
# nginx is the reverse proxy tests/api/test_proxy.py starts in front of satlab.
APT_PACKAGES := build-essential cmake ninja-build libssl-dev python3 emscripten clang \
	libclang-rt-14-dev iperf3 chromium ngtcp2-client ngtcp2-server redis-server \
	iptables tshark nginx

# The GF(2^8) kernels `make bench-codec` asks for, best first. The benchmark
# prints nothing for a kernel this CPU lacks.
KERNELS := gfni avx2 ssse3 scalar
DISABLE_gfni :=
DISABLE_avx2 := gfni
DISABLE_ssse3 := gfni,avx2
DISABLE_scalar := gfni,avx2,ssse3

.PHONY: help deps venv build build-native build-asan build-wasm build-frontend check test \
	test-codec test-asan test-vectors test-wasm test-datapath test-backend test-frontend test-compose test-stack bench \
	bench-codec bench-datapath bench-engine bench-scale bench-frontend fuzz soak soak-classroom run clean

help:
	@sed -n '1,21p' Makefile

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
	@for dir in codec/wasm frontend; do \
		(cd $$dir && { npm ls --silent >/dev/null 2>&1 || npm ci --no-audit --no-fund; }); \
	done

venv: $(VENV)/.installed

$(VENV)/.installed: backend/pyproject.toml
	@[ -n "$(PYTHON312)" ] || { echo "Python 3.12 was not found (neither pyenv's 3.12 nor python3.12 on PATH); install it and rerun." >&2; exit 1; }
	$(PYTHON312) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -e 'backend[test]'
	touch $@

build: build-native build-wasm build-frontend

build-native: deps
	cmake -S codec -B $(BUILD)/codec -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD)/codec --parallel $(JOBS)

build-asan: deps
	cmake -S codec -B $(BUILD)/codec-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DSWF_SANITIZE=ON >/dev/null
	cmake --build $(BUILD)/codec-asan --parallel $(JOBS)

build-wasm: deps
	codec/wasm/build.sh

# The browser labs as a static site in frontend/dist, with the codec's .wasm.
build-frontend: build-wasm
	cd frontend && npm run build

# The fast first stage: what fails in minutes fails here, before the long suite:
# the codec's unit tests, the backend's lint, types and rootless tests, the
# frontend's lint, types and unit tests.
check: build-native build-wasm venv
	ctest --test-dir $(BUILD)/codec --output-on-failure --parallel $(JOBS)
	cd backend && .venv/bin/ruff check satlab tests bench && .venv/bin/mypy \
		&& .venv/bin/pytest -q -m "not needs_root" -n 2
	cd frontend && npm run lint --if-present && npm run check-api && npm run typecheck && npx vitest run
	@echo "make check: all passed"

# make check goes first and its lint, types and unit tests are not run twice:
# with CHECKED set, test-backend and test-frontend run only what check did not.
test: CHECKED := yes
test: check test-vectors test-asan test-wasm test-datapath test-backend test-frontend test-compose test-stack
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

# The emulated GEO path: real namespaces, TUN devices, satlink, swf-tunnel,
# iperf3 (needs root).
test-datapath: build-native venv
	$(VENV)/bin/pytest tests/datapath

test-frontend: build-frontend build-native venv
	cd frontend && $(if $(CHECKED),,npm run lint && npm run check-api && npm test && )npm run first-load && npm run e2e

# The backend: ruff, mypy --strict, then pytest: scenario model, engine, store,
# API, CLI; its integration tests run real experiments through namespaces,
# satlink, swf-tunnel, iperf3, picoquic and ngtcp2; the scenario parser's fuzz
# corpus replayed; a 20-run soak (make soak's).
# The root tests mostly wait on 500 ms round trips, so two run at once (pytest-xdist: 2 of the 12 to
# 16 runs this host's calibration keeps time for); those that look at or hold the whole host
# (host_wide) run alone after them.
test-backend: build-native venv
	cd backend && $(if $(CHECKED),,.venv/bin/ruff check satlab tests bench && .venv/bin/mypy \
		&& .venv/bin/pytest -m "not needs_root" && ).venv/bin/pytest -m "needs_root and not host_wide" -n 2 \
		--durations=15 && .venv/bin/pytest -m "needs_root and host_wide" --durations=15

# The instructor's stack (compose.yaml, Dockerfile), checked without a Docker
# engine: the Compose schema, and the same build steps and paths as this Makefile.
test-compose: venv
	$(VENV)/bin/pytest tests/compose

# The instructor's stack for real (tests/stack/run.sh; needs root): Docker and a
# Compose v2 built from its Go module where missing, stand-in base images, the
# image built, `docker compose up` until healthy, Chromium through the
# published port (sign in, a 2 MB geo-ideal run), down, nothing left on the host.
test-stack: deps
	tests/stack/run.sh

bench: bench-codec bench-datapath bench-engine bench-frontend

bench-codec: build-native build-wasm
	@$(foreach k,$(KERNELS),SWF_DISABLE_CPU_FEATURES="$(DISABLE_$(k))" \
		$(BUILD)/codec/bench/bench_codec --kernel $(k);)
	@node codec/wasm/bench.mjs

bench-datapath: build-native venv
	@$(VENV)/bin/python tests/datapath/bench_datapath.py

# The geo-ideal 20 MiB download against the published figures, and four
# concurrent runs against a lone one (needs root, about 90 s).
bench-engine: build-native venv
	@$(VENV)/bin/python backend/bench/bench_engine.py

# Runs on workers (issue 23; needs root and redis-server, 15-40 minutes on a
# loaded 2-core machine): this machine's calibrated capacity per kind of run
# on the Petrou path, a campaign's runs per hour through 1 and 2 `satlab
# worker`s, and the Petrou 1-flow matrix's expected wall time on 1, 4 and 16
# such machines. Not part of `make bench`: it takes the machine over.
bench-scale: build-native venv
	@$(VENV)/bin/python backend/bench/bench_scale.py

# The channel lab's Monte-Carlo in headless Chromium: packets/s in its Web Workers
# (wall clock and per CPU-second) and the page's longest main-thread block meanwhile.
bench-frontend: build-frontend
	@cd frontend && node bench/frontend.bench.mjs

fuzz: deps venv
	CC=clang cmake -S codec -B $(BUILD)/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DSWF_SANITIZE=ON -DSWF_LIBFUZZER=ON >/dev/null
	cmake --build $(BUILD)/fuzz --parallel $(JOBS) $(FUZZ_TARGETS:%=--target fuzz_%)
	@$(foreach t,$(FUZZ_TARGETS),mkdir -p $(BUILD)/fuzz/corpus-$(t) && \
		$(BUILD)/fuzz/fuzz/fuzz_$(t) -max_total_time=$(FUZZ_SECONDS) \
			$(BUILD)/fuzz/corpus-$(t) codec/fuzz/$(t)/corpus;)
	cd backend && .venv/bin/python -m tests.fuzz.fuzz_scenario --seconds $(FUZZ_SECONDS)

# 200 short runs through the API of a real satlab serve (needs root, 3-10
# minutes): one JSON line; fails if a bad body got a 5xx, a run did not end,
# the backend's RSS grew over 10 % or anything was left. test-backend runs 20.
soak: build-native venv
	cd backend && .venv/bin/python -m bench.soak --runs 200

# A class on a real satlab serve for 10 minutes (needs root): 30 students from
# their own loopback addresses and the instructor, over HTTP and WebSockets, tiny
# real runs, and issue 20's attacks interleaved; one JSON line (requests,
# refusals by kind, the instructor's p99 latency, RSS); fails if a quota did not
# hold, the instructor was refused, the RSS grew over 10 % or anything was left.
# test-backend runs a minute of it.
soak-classroom: build-native venv
	cd backend && .venv/bin/python -m bench.soak_classroom --seconds 600 --students 30

# The backend (API under /api, OpenAPI at /api/docs) serving the built
# frontend at /; runs are stored in $$SATLAB_DB (default /var/lib/satlab/satlab.db).
run: build-native build-frontend venv
	$(VENV)/bin/satlab serve --host 127.0.0.1 --port 8000

clean:
	rm -rf $(BUILD)
