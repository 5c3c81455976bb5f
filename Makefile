# The two commands that do everything on a fresh Debian machine with the Swift toolchain:
#   make site   installs missing system packages, builds sift (release) and the example site into public/
#   make test   runs every test
SHELL := /bin/bash
SIFT := .build/release/sift
APT_PACKAGES := libcmark-dev libyaml-dev zlib1g-dev libbrotli-dev pkg-config
# The browser tests' Python side: Playwright drives Debian's Chromium, axe-core audits each state.
PIP_PACKAGES := playwright pytest axe-playwright-python

.PHONY: site test deps build js js-deps swift-test js-test browser-test browser-deps hardening-test limits fuzz fuzz-long fuzz-build screenshots bench bench-1m bench-deps relevance relevance-deps serve clean

site: build
	$(SIFT) build

# The Swift runtime and Foundation linked in (`--static-swift-stdlib`): a process starts in 4 ms
# instead of 9, and its runtime calls are direct; builds about 3 % faster (docs/performance.md).
build: deps
	swift build -c release --product sift --static-swift-stdlib

# Installs the C libraries the Swift targets link, only when pkg-config cannot find them.
deps:
	@if ! pkg-config --exists libcmark yaml-0.1 zlib libbrotlienc libbrotlidec 2>/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES) >/dev/null; \
	  else \
	    echo "sift needs: sudo apt-get install $(APT_PACKAGES)"; exit 1; \
	  fi; \
	fi

test: deps swift-test js-test browser-test hardening-test

# The search bar's shipped files (Sources/SiftKit/Resources/sift.js, sift-core.js, sift.css) from
# their readable sources in Web/, minified by Debian's esbuild. Run it after editing Web/; the
# js-test target fails while they are stale.
js: js-deps
	Web/build.sh

# Debian's esbuild (0.17 in Debian 12), installed only when missing.
js-deps:
	@if ! command -v esbuild >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq esbuild >/dev/null; \
	  else \
	    echo "the search bar's files are built with: sudo apt-get install esbuild"; exit 1; \
	  fi; \
	fi

swift-test:
	swift test

# sift-core.js against the shared vectors and, on the example site it builds first, against `sift search`;
# on corrupt indexes (fuzz.test.mjs); against `sift search` on 20 random sites (differential.test.mjs);
# and the shipped files against a fresh esbuild run over Web/.
js-test: site js-deps
	node --test Tests/js/

# The search bar in real headless Chromium (Debian's, driven by Python Playwright) against
# the example site built into a temporary folder by the release sift. See Tests/browser/.
browser-test: build browser-deps
	python3 -m pytest -q Tests/browser

# The release sift killed mid-build, onto a read-only or full disk, and fed content at its limits
# (docs/limits.md); tmpfs mounts need root, and those cases skip with a reason otherwise.
hardening-test: build browser-deps
	python3 -m pytest -q Tests/hardening

# The limits too slow for `make test`: a 1,000,000-row CSV built in full, 100k items (docs/limits.md).
limits: build
	python3 Tests/hardening/limits_long.py

# libFuzzer + AddressSanitizer over the parsers (Fuzz/, a package of its own), FUZZ_SECONDS each (default 60),
# then `sift search` against sift-core.js on random sites for DIFF_SECONDS (default 60): each
# disagreement is kept in Tests/Fixtures/differential/ (Tests/differential/run.mjs).
fuzz: deps build fuzz-build
	Fuzz/run-fuzz.sh; libfuzzer=$$?; node Tests/differential/run.mjs; differential=$$?; exit $$((libfuzzer || differential))

# Every libFuzzer target to FUZZ_RUNS executions (default ten million), printing each one's
# executions per second and time taken; FUZZ_TARGETS="FuzzCSV FuzzHTTP" picks some.
FUZZ_RUNS ?= 10000000
fuzz-long: deps fuzz-build
	FUZZ_RUNS=$(FUZZ_RUNS) Fuzz/run-fuzz.sh

# Each target by name: a plain `swift build` there would also build the root package's `sift`,
# whose main.swift cannot be compiled with -parse-as-library. Optimized (-c release, with
# -enable-testing for the targets' @testable import): three to four times the executions a
# second of a debug build, and the same checks (bounds, overflow, preconditions, ASan).
FUZZ_ALL := FuzzCSV FuzzFrontMatter FuzzMustache FuzzSlug FuzzIndex FuzzSettings FuzzHTTP FuzzTokenizer
fuzz-build: deps
	cd Fuzz && for target in $(FUZZ_ALL); do \
	  swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing --product $$target || exit 1; done

# Chromium, nginx (the deploy test) and Playwright, installed only when missing; never `playwright install` (it downloads a browser).
browser-deps:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/sbin/nginx ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium nginx-light >/dev/null; \
	  else \
	    echo "the browser tests need: sudo apt-get install chromium nginx-light"; exit 1; \
	  fi; \
	fi
	@if ! python3 -c 'import playwright, pytest, axe_playwright_python' 2>/dev/null; then \
	  python3 -m pip --version >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null; }; \
	  python3 -m pip install -q $(PIP_PACKAGES) 2>/dev/null || python3 -m pip install -q --break-system-packages $(PIP_PACKAGES); \
	fi

# Relevance of Sift and Pagefind side by side on Debian's English, Chinese and Japanese manual pages, the same
# pages built by Hugo for Pagefind (docs/relevance.md, Benchmarks/relevance/). A benchmark, not part of `make test`;
# data goes to /dev/shm/sift-relevance (RELEVANCE_DATA).
RELEVANCE_DATA ?= /dev/shm/sift-relevance
RELEVANCE_PIP := playwright pagefind-bin==1.5.2 pagefind-bin-extended==1.5.2

relevance: build relevance-deps
	python3 Benchmarks/relevance/run.py --data $(RELEVANCE_DATA)

relevance-deps:
	@missing=""; for p in $$(python3 Benchmarks/relevance/make_corpora.py --packages) hugo chromium; do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "the relevance benchmark needs: sudo apt-get install$$missing"; exit 1; \
	  fi; \
	fi
	@if ! python3 -c 'import importlib.metadata as m, playwright; assert m.version("pagefind_bin") == m.version("pagefind_bin_extended") == "1.5.2"' 2>/dev/null; then \
	  python3 -m pip --version >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null; }; \
	  python3 -m pip install -q $(RELEVANCE_PIP) 2>/dev/null || python3 -m pip install -q --break-system-packages $(RELEVANCE_PIP); \
	fi

# Screenshots of the candies page (idle, dimmed, scope Hard, centered) and of every options-matrix
# site's states, at 1280x900 and 390x844, into /tmp/sift-shots. CJK fonts so 搜索 is not drawn as boxes.
screenshots: build browser-deps
	@if ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null; \
	  else \
	    echo "CJK text shows as boxes without: sudo apt-get install fonts-noto-cjk"; \
	  fi; \
	fi
	python3 Tests/browser/screenshots.py /tmp/sift-shots

serve: site
	cd public && python3 -m http.server 8000 --bind 127.0.0.1

# What `make bench` measures sift beside, installed only when missing: Hugo, node and cmark (the
# single-core Markdown floor, `cat *.md | cmark`) from Debian,
# pagefind-bin from PyPI (its binary is inside the wheel), Chromium and Playwright as for the
# browser tests. Every script it runs is in Benchmarks/; BENCH_SIZES=1000,10000 picks the sizes.
bench-deps: browser-deps
	@missing=""; command -v hugo >/dev/null || missing="$$missing hugo"; command -v node >/dev/null || missing="$$missing nodejs"; \
	command -v cmark >/dev/null || missing="$$missing cmark"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "make bench skips what needs:$$missing (sudo apt-get install$$missing)"; \
	  fi; \
	fi
	@if ! python3 -c 'import pagefind_bin' 2>/dev/null; then \
	  python3 -m pip install -q pagefind-bin 2>/dev/null || python3 -m pip install -q --break-system-packages pagefind-bin; \
	fi

bench: build bench-deps
	python3 Benchmarks/bench.py

# A million items (issue 18): 1,000,000 rows, a Markdown page for 10 % of them, built clean and
# incrementally (time, peak memory, index size), and the first query and keystrokes at 1M and
# 100k in Chromium (Benchmarks/bench_million.py; BENCH_SIZES=1000000 skips the 100k). Corpora and
# outputs go to BENCH_1M_WORK, on disk (11 GB at 1M, more during a build; /dev/shm is memory the build needs);
# the corpora stay there for the next run. It stops, saying why, without 10 GB of memory
# available and 25 GB free there, and kills a build that leaves under 1 GB of either.
BENCH_1M_WORK ?= /var/tmp/sift-bench-1m

bench-1m: build bench-deps
	python3 Benchmarks/bench_million.py --work $(BENCH_1M_WORK) --json $(BENCH_1M_WORK)/results.json

clean:
	rm -rf .build public/*
