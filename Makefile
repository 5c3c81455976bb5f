# The two commands that do everything on a fresh Debian machine with the Swift toolchain:
#   make site   installs missing system packages, builds sift (release) and the example site into public/
#   make test   runs every test
SHELL := /bin/bash
SIFT := .build/release/sift
APT_PACKAGES := libcmark-dev libyaml-dev pkg-config

.PHONY: site test deps build swift-test js-test browser-test bench serve clean

site: build
	$(SIFT) build

build: deps
	swift build -c release --product sift

# Installs the C libraries the Swift targets link, only when pkg-config cannot find them.
deps:
	@if ! pkg-config --exists libcmark yaml-0.1 2>/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES) >/dev/null; \
	  else \
	    echo "sift needs: sudo apt-get install $(APT_PACKAGES)"; exit 1; \
	  fi; \
	fi

test: deps swift-test

swift-test:
	swift test

serve: site
	cd public && python3 -m http.server 8000 --bind 127.0.0.1

bench: build
	python3 Benchmarks/bench.py

clean:
	rm -rf .build public/*
