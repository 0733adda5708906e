# Thin wrapper over CMake/CTest.  `make test` and `make bench` work on a fresh
# machine with or without a GPU; `make gpu-check` is the one-shot run for the
# GPU machine (no network there: it builds from the working tree alone).
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
CTEST_FLAGS ?= --output-on-failure
BENCH_ARGS ?= quick
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
PYENV ?= $(BUILD)/pyenv
# GPU code the build holds: the GPUs of this machine where it has any, else
# Hopper's alone (a compile check: the CUDA tests skip without a GPU; CI sets
# 90-virtual, PTX alone, .ci/run).  An installed build (cmake without this,
# pip) holds every generation from 7.5.
CUDA_ARCHS ?= $(shell nvidia-smi -L >/dev/null 2>&1 && echo native || echo 90)
# The generations make arch-check compiles the kernels for.
ARCHS ?= 75 80 86 89 90

.PHONY: all configure test test-python bench gpu-check arch-check test-sanitize fuzz plots install clean

all: configure
	cmake --build $(BUILD) -j $(JOBS)

configure:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=$(CUDA_ARCHS) $(CMAKE_FLAGS)

test: all
	ctest --test-dir $(BUILD) $(CTEST_FLAGS) -j $(JOBS)
	$(MAKE) test-python

# The Python package's CPU tests: a venv in the build directory, the package
# built as pip builds it for a user (the CPU backend alone, so that it needs
# no nvcc), then pytest.  Needs PyPI for scikit-build-core, numpy and pytest.
test-python:
	python3 -m venv $(PYENV)
	$(PYENV)/bin/pip install -q scikit-build-core numpy pytest
	CMAKE_ARGS=-DHIVE_WITH_CUDA=OFF $(PYENV)/bin/pip install -q --no-build-isolation ./python
	$(PYENV)/bin/pytest -q python/tests

bench: all
	$(BUILD)/bench/hive-bench $(BENCH_ARGS)

# The C code again under AddressSanitizer+UBSan and under ThreadSanitizer
# (CPU backend; the CUDA runtime does not run under these sanitizers).
# ThreadSanitizer leaves out the other designs' copies of the suites (they
# share the slot protocol and the worker pool with the Hive design's runs;
# the plain and ASan runs keep them), save the chaining design's stress and
# chains runs (writers of different keys race for a chain's end, which no
# other design has), and the hit-rate sweep (no concurrency of its own
# beyond the pool).  The tagged designs keep double_m's adversarial run and
# their crowded-finders runs: claims publish a tag and a pair in two writes
# (docs/designs/metadata.md), which finders and writers race on, the same
# way whatever the placement.  Of the runs over filtered tables
# (`filter`), those that race finders and writers.  The cache's eviction suite
# runs once: its variants with values in host memory past a budget (`hbm0`,
# `hbm33`) place values by the same slots under the same locks.
TSAN_SKIP ?= [.](double|p2|iceberg|cuckoo)$$|^(differential|resize|alloc_fail|conformance[.](table|growth|fill|loadfactor|aging)|crowded[.](crowded|sparse))[.].*[.]filter|^(differential|adversarial|crowded|conformance|placement|seed|device_view)[.].*[.]chaining$$|^(differential|conformance|placement|seed|device_view|crowded[.](small|crowded|sparse))[.].*[.](double|p2|iceberg)_m$$|^adversarial[.].*[.](p2|iceberg)_m$$|^cache[.]hitrate[.]|^cache[.]eviction[.]hbm
# AddressSanitizer leaves out the p2 and iceberg designs' copies and their
# tagged variants' (the double and double_m runs cover the same arrays and
# bodies: the two differ in their placement hooks alone, which index nothing).
ASAN_SKIP ?= [.](p2|iceberg)(_m)?$$
test-sanitize:
	cmake -S . -B $(BUILD)-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHIVE_WITH_CUDA=OFF -DHIVE_BUILD_BENCH=OFF -DHIVE_SANITIZE=address,undefined
	cmake --build $(BUILD)-asan -j $(JOBS)
	ctest --test-dir $(BUILD)-asan $(CTEST_FLAGS) -LE slow -E '$(ASAN_SKIP)' -j $(JOBS)
	cmake -S . -B $(BUILD)-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHIVE_WITH_CUDA=OFF -DHIVE_BUILD_BENCH=OFF -DHIVE_SANITIZE=thread
	cmake --build $(BUILD)-tsan -j $(JOBS)
	TSAN_OPTIONS=halt_on_error=1 ctest --test-dir $(BUILD)-tsan $(CTEST_FLAGS) -LE slow -E '$(TSAN_SKIP)' -j $(JOBS)

# libFuzzer on the CPU backend (tests/fuzz; clang with libFuzzer, ASan+UBSan):
# FUZZ_SECONDS of fuzzing from tests/fuzz/corpus/.  A mismatch with the
# reference or a sanitizer report fails and prints the input in hex.
fuzz:
	cmake -S . -B $(BUILD)-fuzz -DCMAKE_C_COMPILER=$(FUZZ_CC) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHIVE_WITH_CUDA=OFF -DHIVE_BUILD_BENCH=OFF -DHIVE_FUZZ=ON
	cmake --build $(BUILD)-fuzz -j $(JOBS) --target hive-fuzz
	bash tests/fuzz/run.sh $(BUILD)-fuzz/tests/hive-fuzz $(FUZZ_SECONDS) $(BUILD)-fuzz/fuzz

# The kernels compiled for every GPU generation an installed build holds
# (tools/arch-check.sh): no GPU needed.
arch-check:
	ARCHS="$(ARCHS)" bash tools/arch-check.sh

# For the GPU machine: sm_90 build, GPU tests that fail (not skip) without a
# GPU, the quick benchmark; logs and results are copied to $OUT when set.
gpu-check:
	bash tools/gpu-check.sh

# A PNG per workload in each folder under bench/results, drawn only where it is
# missing or older than a CSV it is drawn from (the others are skipped, one
# line each); `make plots PLOT_FLAGS=--all` draws every one.
plots:
	python3 bench/plot.py $(PLOT_FLAGS) bench/results

install: all
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-tsan $(BUILD)-fuzz
