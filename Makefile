# scoreboardd: build, demo and tests.
#
#   make demo    the scoreboard in this terminal, typed on this keyboard (no hardware)
#   make test    everything CI checks: warnings as errors, formatting, all tests
#   make test-gpiod2  all tests again, built against libgpiod 2 (downloaded, not installed)
#   make build   a release build of scoreboardd
#   make bench   the benchmarks, which print their figures

SWIFT ?= swift
# Debian packages the build needs (system C libraries and their pkg-config files).
DEB_PACKAGES := pkg-config libinih-dev libgpiod-dev
# Warnings are errors everywhere, so a warning never slips into a commit.
SWIFT_FLAGS := -Xswiftc -warnings-as-errors
FORMAT_PATHS := Package.swift Sources Tests Benchmarks

.PHONY: all deps toolchain build demo test test-gpiod2 bench lint format clean

all: build

# Installs missing Debian packages when run as root; otherwise prints the exact command.
deps:
	@missing=""; \
	for package in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q 'install ok installed' \
	    || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "scoreboardd needs these Debian packages. Install them with:"; \
	    echo "  sudo apt-get install$$missing"; \
	    exit 1; \
	  fi; \
	fi

toolchain:
	@command -v $(SWIFT) >/dev/null 2>&1 || { \
	  echo "The Swift toolchain (6.0 or later) is not on PATH."; \
	  echo "Install it from the Swift project's Linux packages and add its usr/bin to PATH."; \
	  exit 1; }

build: deps toolchain
	$(SWIFT) build -c release $(SWIFT_FLAGS)

demo: deps toolchain
	$(SWIFT) build $(SWIFT_FLAGS) --product scoreboardd
	"$$($(SWIFT) build --show-bin-path)/scoreboardd" --config Config/demo.conf

lint: toolchain
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)

format: toolchain
	$(SWIFT) format --in-place --recursive $(FORMAT_PATHS)

test: deps toolchain
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)
	$(SWIFT) test $(SWIFT_FLAGS)

# The system libgpiod-dev of bookworm is 1.6 (v1 API); this builds the same sources
# against libgpiod 2.1 from bookworm-backports, unpacked into a cache outside the clone
# (see scripts/libgpiod2.sh), and runs every test on it.
test-gpiod2: deps toolchain
	SWIFT="$(SWIFT)" bash scripts/libgpiod2.sh

# Benchmarks print their figures; they are not pass/fail tests.
bench: deps toolchain
	$(SWIFT) build -c release $(SWIFT_FLAGS) --product GPIOFrameBenchmark
	"$$($(SWIFT) build -c release --show-bin-path)/GPIOFrameBenchmark"

clean:
	rm -rf .build
