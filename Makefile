# scoreboardd: build, demo and tests.
#
#   make demo    the scoreboard in this terminal, typed on this keyboard (no hardware)
#   make test    everything CI checks: warnings as errors, formatting, all tests
#   make test-gpiod2  all tests again, built against libgpiod 2 (downloaded, not installed)
#   make test-web  the web pages in a headless chromium: they show what the daemon shows
#   make test-trixie  make test again in a Debian trixie root, with trixie's own Swift
#                  (swiftlang 6.0) and libgpiod 2.2 (scripts/test-trixie.sh; needs root)
#   make test-hil  the daemon on real kernel devices in a QEMU virtual machine, against
#                  libgpiod 1.6 and 2 (Tests/HIL/run.sh)
#   make test-powercut  the power of that virtual machine cut in the middle of changes,
#                  CUTS times (12, as CI; CUTS=100 for the full run): not one value the
#                  daemon acknowledged may be lost (Tests/HIL/powercut.sh)
#   make deb     the Debian packages for trixie, arm64 (cross-compiled) and amd64, checked by
#                  lintian, in dist/ (scripts/deb.sh; needs root)
#   make test-arm64  the packages' user journey on an emulated Raspberry Pi: apt install,
#                  the service under systemd on real kernel devices, upgrade and purge, in
#                  a Debian trixie arm64 virtual machine (Tests/ARM64/run.sh; needs root)
#   make build   a release build of scoreboardd and scoreboardctl, scoreboardd laid out by
#                its own profile (scripts/bolt.sh, with llvm-bolt; BOLT=no leaves it out)
#   make bench   the benchmarks, which print their figures and write Benchmarks/results.md
#                (with the stage times of a build made for them, -DSTAGE_TIMES, kept in
#                ~/.cache/scoreboardd/stage-build)
#   make key-path-order  the link order of the functions on a key's path, traced under gdb
#                (scripts/key-path-order.py), for the release link
#   make fuzz    the libFuzzer targets (address sanitizer) of every parser of outside bytes,
#                FUZZ_SECONDS each (default 30); a crash fails it (Tests/Fuzz/run.sh)
#   make install    install the programs, the systemd unit and its MQTT drop-in, the
#                   configuration and the man pages (PREFIX=/usr/local, DESTDIR= for a
#                   staging directory)
#   make uninstall  remove them again, but for the configuration and the state
#   make test-install  make install into a folder of its own, the installed programs run
#                   and check every configuration, then make uninstall
#   make test-release  all tests again, the daemon and scoreboardctl they start the
#                   release programs make install installs

SWIFT ?= swift
# Debian packages the build needs (system C libraries and their pkg-config files).
DEB_PACKAGES := pkg-config libgpiod-dev libmosquitto-dev libmicrohttpd-dev
# What make test's MQTT tests run: a real broker of their own on a loopback port
# (mosquitto, whose package also enables the system's mosquitto.service on port 1883,
# which the tests leave alone), independent clients (mosquitto_pub, mosquitto_sub) and
# openssl for a throwaway CA of the TLS listener.
TEST_PACKAGES := mosquitto mosquitto-clients openssl
# What make test's checks of the unit and the man pages run (systemd-analyze, man, groff):
# always there on a Raspberry Pi, not in a minimal Debian root.
CHECK_PACKAGES := systemd procps man-db groff-base
# Warnings are errors everywhere, so a warning never slips into a commit.
SWIFT_FLAGS := -Xswiftc -warnings-as-errors
FORMAT_PATHS := Package.swift Sources Tests Benchmarks
# LINT=no leaves out the format lint of make test, for a toolchain without `swift format`.
LINT ?= yes

# Where `make install` puts things. PREFIX and DESTDIR as usual.
PREFIX ?= /usr/local
# The daemon is for the system (man section 8); scoreboardctl is for everyone.
SBINDIR ?= $(PREFIX)/sbin
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/scoreboardd
# Files of scoreboardd's own that nothing reads unless told to: the MQTT drop-in of the
# unit, linked among its drop-ins by the administrator (systemd/mqtt-network.conf).
DATADIR ?= $(PREFIX)/share
# The daemon reads /etc/scoreboardd/scoreboardd.conf unless told otherwise.
SYSCONFDIR ?= /etc
# systemd finds units and sysusers.d files below /usr/local/lib and /usr/lib (and in
# /etc, which is the administrator's). With another PREFIX, set these two to
# /etc/systemd/system and /etc/sysusers.d.
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
INSTALL ?= install

# What make install builds: the release binaries, by `make build`. The scoreboardd it
# installs is the one scripts/bolt.sh laid out by its profile, beside the linked one.
RELEASE_DIR := .build/release
OPTIMIZED_DAEMON := $(RELEASE_DIR)/optimized/scoreboardd
RELEASE_PROGRAMS := $(OPTIMIZED_DAEMON) $(RELEASE_DIR)/scoreboardctl
MAN_PAGES := docs/man/scoreboardd.8 docs/man/scoreboardd.conf.5 docs/man/scoreboardctl.1
EXAMPLES := $(wildcard Config/examples/*.conf Config/examples/*.acl)
DOCS := $(wildcard docs/*.md)

.PHONY: all deps toolchain build demo test test-release test-gpiod2 test-trixie test-hil test-powercut bench fuzz test-web install-packages
.PHONY: key-path-order
.PHONY: deb test-arm64
.PHONY: lint format clean
.PHONY: check-man install uninstall test-install

all: build

# Installs missing Debian packages when run as root; otherwise prints the exact command.
deps:
	@$(MAKE) -s install-packages PACKAGES="$(DEB_PACKAGES) $(TEST_PACKAGES) $(CHECK_PACKAGES)"

install-packages:
	@missing=""; \
	for package in $(PACKAGES); do \
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
	@bash scripts/toolchain.sh "$(SWIFT)"

# The Swift runtime is linked in, so that the installed programs need only the
# system's C libraries: not the toolchain, which may sit in a home directory the
# service cannot see (ProtectHome=yes), or be upgraded or removed.
RELEASE_FLAGS := -c release --static-swift-stdlib
# BOLT=auto lays scoreboardd out by its profile on x86_64 when llvm-bolt is installed;
# yes makes a failure an error and tries any machine; no leaves it out (scripts/bolt.sh).
# Its link is then made for llvm-bolt (BOLT_LINK_FLAGS: `scripts/bolt.sh --link-flags`).
BOLT ?= auto
BOLT_LINK_FLAGS = $$(BOLT=$(BOLT) bash scripts/bolt.sh --link-flags)
# What lays it out (installed by make build when run as root; without it, as yourself,
# scripts/bolt.sh says so and keeps the linker's layout).
OPTIMIZER_PACKAGES := bolt-19

# (A release folder built with other flags or another link order starts afresh:
# scripts/release-folder.sh.)
build: deps toolchain
	@if [ "$(BOLT)" = yes ] || { [ "$(BOLT)" = auto ] && [ "$$(uname -m)" = x86_64 ]; }; then \
	  [ "$$(id -u)" != 0 ] || $(MAKE) -s install-packages PACKAGES="$(OPTIMIZER_PACKAGES)"; fi
	sh scripts/release-folder.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS) --product scoreboardctl
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS) $(BOLT_LINK_FLAGS) --product scoreboardd
	BOLT=$(BOLT) bash scripts/bolt.sh $(RELEASE_DIR)/scoreboardd $(OPTIMIZED_DAEMON)

# The demo keeps its scores and its control socket in a folder only its user may enter:
# $XDG_RUNTIME_DIR/scoreboardd-demo, or /tmp/scoreboardd-demo-UID without a session.
# scoreboardd refuses a folder someone else owns or may write to.
DEMO_DIR ?= $(if $(XDG_RUNTIME_DIR),$(XDG_RUNTIME_DIR)/scoreboardd-demo,/tmp/scoreboardd-demo-$(shell id -u))

demo: deps toolchain
	$(SWIFT) build $(SWIFT_FLAGS) --product scoreboardd
	$(SWIFT) build $(SWIFT_FLAGS) --product scoreboardctl
	@mkdir -p -m 0700 "$(DEMO_DIR)"
	@echo "Scores kept in $(DEMO_DIR)/state. In a browser: the console http://127.0.0.1:8080/"
	@echo "(its pairing code is printed below the board, and shown on it for two minutes),"
	@echo "the board http://127.0.0.1:8080/board, the overlay http://127.0.0.1:8080/overlay"
	@echo "From another terminal (pair prints a new code, which the board shows):"
	@echo "  SCOREBOARDD_SOCKET=$(DEMO_DIR)/control $$($(SWIFT) build --show-bin-path)/scoreboardctl status"
	@echo "  SCOREBOARDD_SOCKET=$(DEMO_DIR)/control $$($(SWIFT) build --show-bin-path)/scoreboardctl pair"
	"$$($(SWIFT) build --show-bin-path)/scoreboardd" --config Config/demo.conf \
	  --state-file "$(DEMO_DIR)/state" --control-socket "$(DEMO_DIR)/control" --pair

lint: toolchain
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)

format: toolchain
	$(SWIFT) format --in-place --recursive $(FORMAT_PATHS)

test: deps toolchain
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(if $(filter no,$(LINT)),@echo "format lint: left out (LINT=no)",$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS))
	$(SWIFT) test $(SWIFT_FLAGS)
	bash systemd/check-unit.sh "$$($(SWIFT) build --show-bin-path)/scoreboardd"
	@$(MAKE) --no-print-directory check-man

# The man pages must render without a single warning.
check-man:
	@command -v groff >/dev/null 2>&1 || { \
	  echo "groff is missing (Debian: apt-get install groff-base)"; exit 1; }
	@for page in $(MAN_PAGES); do \
	  warnings=$$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$$page" 2>&1); \
	  if [ -n "$$warnings" ]; then printf '%s\n' "$$warnings"; exit 1; fi; \
	done
	@echo "man pages: $(words $(MAN_PAGES)) pages, no warnings"

# The system libgpiod-dev of bookworm is 1.6 (v1 API); this builds the same sources
# against libgpiod 2.1 from bookworm-backports, unpacked into a cache outside the clone
# (see scripts/libgpiod2.sh), and runs every test on it.
test-gpiod2: deps toolchain
	SWIFT="$(SWIFT)" bash scripts/libgpiod2.sh

# Debian trixie ships its own Swift (swiftlang 6.0) and libgpiod 2.2: this runs
# the whole of make test with them, in a trixie root made by debootstrap in
# ~/.cache/scoreboardd/trixie-root (made once, again when its package list changes) with
# the clone bind-mounted in it and its own build folder (see scripts/test-trixie.sh).
test-trixie:
	bash scripts/test-trixie.sh

# The Debian packages scoreboardd_VERSION_arm64.deb and _amd64.deb (with -dbgsym packages
# and build records) for Debian and Raspberry Pi OS trixie, built with trixie's own Swift
# in the root of make test-trixie, which also holds the arm64 libraries and Swift runtime
# the arm64 programs are cross-compiled against; then lintian, which must find no error
# and no warning. Into dist/ (DEB_OUT= for another folder), printed at the end.
DEB_OUT ?= dist
deb:
	bash scripts/deb.sh --out "$(DEB_OUT)"

# The arm64 package, and a second build with a higher version, installed with apt in a
# Debian trixie arm64 system under qemu-system-aarch64 with systemd as PID 1: the service
# on a uinput keypad, gpio-sim buttons and MAX7219, and an S7S on the PL011 UART; reload,
# kill -9, scoreboardctl permissions, stop, upgrade, MQTT (Debian's mosquitto, the service
# as master, a second service as its mirror on the S7S) and purge. The disk image is made
# once in ~/.cache/scoreboardd/arm64 (Tests/ARM64/image.sh); see Tests/ARM64/run.sh.
test-arm64:
	bash Tests/ARM64/run.sh

# Hardware in the loop: the release daemon, built against libgpiod 1.6 and 2, runs in a
# QEMU guest with a Debian kernel on gpio-sim lines, a uinput keypad and a real UART (see
# Tests/HIL/run.sh). Downloads and builds go to ~/.cache/scoreboardd/hil and .build.
# The pages in a real browser: Debian's chromium, headless, through chromium-driver and
# python3-selenium (Tests/Web/browser_test.py). Screenshots go to .build/web-screenshots.
WEB_TEST_PACKAGES := chromium chromium-driver python3-selenium
test-web: deps toolchain
	@$(MAKE) -s install-packages PACKAGES="$(WEB_TEST_PACKAGES)"
	$(SWIFT) build $(SWIFT_FLAGS) --product scoreboardd
	$(SWIFT) build $(SWIFT_FLAGS) --product scoreboardctl
	@mkdir -p .build/web-screenshots
	/usr/bin/python3 Tests/Web/browser_test.py "$$($(SWIFT) build --show-bin-path)" .build/web-screenshots

test-hil: deps toolchain
	SWIFT="$(SWIFT)" bash Tests/HIL/run.sh

# Power cuts: the release daemon runs in a QEMU guest with its state file on an ext4 disk
# image, and QEMU is killed (no shutdown, no sync) at a random moment while values change;
# each boot checks that the last value answered `ok` came back. CUTS cuts (12 by default,
# CI's share, about 3.5 minutes; CUTS=100 for the full run, under half an hour); SEED= cuts
# at the moments of an earlier run again. It shares test-hil's kernel download in
# ~/.cache/scoreboardd/hil; see Tests/HIL/powercut.sh.
CUTS ?= 12
test-powercut: deps toolchain
	CUTS="$(CUTS)" SEED="$(SEED)" SWIFT="$(SWIFT)" bash Tests/HIL/powercut.sh

# Benchmarks print their figures and write Benchmarks/results.md; they are not pass/fail
# tests. scoreboardd against a Python peer (pyserial from PyPI, in a virtual environment
# under ~/.cache/scoreboardd) and a C floor, then the GPIO frame times, then two game clock
# runs of 10 minutes each. About 25 minutes plus the build.
bench: deps toolchain
	SWIFT="$(SWIFT)" bash Benchmarks/run.sh

# The link order of the functions on a key's path (Sources/scoreboardd/key-path.order,
# which the release link places together): the release daemon is followed instruction by
# instruction under gdb through a key's rounds and a game clock's frames. Run it after a
# change to that path, and commit the file. Needs gdb and valgrind (the functions of a
# whole run, start-up and shut-down, which the link places after the key's path).
key-path-order: deps toolchain
	sh scripts/release-folder.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS) $(BOLT_LINK_FLAGS) --product scoreboardd
	python3 scripts/key-path-order.py "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/scoreboardd"
	# SwiftPM does not know the link reads the file: the next build links again.
	rm -f "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/scoreboardd"

# Fuzzing: each parser of bytes from outside (evdev records, control requests and answers,
# the configuration, the state file, serial and terminal bytes) gets FUZZ_SECONDS of
# libFuzzer with the address sanitizer, on a copy of its seeds in .build/fuzz/work. A
# crash, a failed check, a leak or a timeout fails it and prints how to replay the input.
FUZZ_SECONDS ?= 30
fuzz: deps toolchain
	SWIFT="$(SWIFT)" FUZZ_SECONDS="$(FUZZ_SECONDS)" bash Tests/Fuzz/run.sh

# The release binaries are rebuilt only when a source is newer, so that after
# `make build` as yourself, `sudo make install` needs no Swift on root's PATH and
# leaves no file of root's in .build.
$(RELEASE_PROGRAMS) &: Package.swift $(shell find Sources -type f 2>/dev/null) \
  scripts/bolt.sh scripts/bolt-train.py
	$(MAKE) --no-print-directory build

# Installs everything but never overwrites a configuration: when one exists and
# differs, the new reference configuration goes beside it as scoreboardd.conf.new.
# Run as root without DESTDIR, it also creates the user and groups the unit needs
# (systemd-sysusers); with DESTDIR, the package or image being built must.
install: $(RELEASE_PROGRAMS)
	$(INSTALL) -d "$(DESTDIR)$(SBINDIR)" "$(DESTDIR)$(BINDIR)" \
	  "$(DESTDIR)$(SYSTEMDUNITDIR)" "$(DESTDIR)$(SYSUSERSDIR)" \
	  "$(DESTDIR)$(SYSCONFDIR)/scoreboardd" "$(DESTDIR)$(DOCDIR)/examples" \
	  "$(DESTDIR)$(DATADIR)/scoreboardd" \
	  "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(MANDIR)/man5" "$(DESTDIR)$(MANDIR)/man8"
	$(INSTALL) -m 0755 $(OPTIMIZED_DAEMON) "$(DESTDIR)$(SBINDIR)/scoreboardd"
	$(INSTALL) -m 0755 $(RELEASE_DIR)/scoreboardctl "$(DESTDIR)$(BINDIR)/scoreboardctl"
	sed -e 's|@sbindir@|$(SBINDIR)|g' -e 's|@sysconfdir@|$(SYSCONFDIR)|g' \
	  -e 's|@datadir@|$(DATADIR)|g' \
	  systemd/scoreboardd.service >"$(DESTDIR)$(SYSTEMDUNITDIR)/scoreboardd.service"
	chmod 0644 "$(DESTDIR)$(SYSTEMDUNITDIR)/scoreboardd.service"
	sed -e 's|@datadir@|$(DATADIR)|g' \
	  systemd/mqtt-network.conf >"$(DESTDIR)$(DATADIR)/scoreboardd/mqtt-network.conf"
	chmod 0644 "$(DESTDIR)$(DATADIR)/scoreboardd/mqtt-network.conf"
	sed -e 's|@datadir@|$(DATADIR)|g' \
	  systemd/web-port-80.conf >"$(DESTDIR)$(DATADIR)/scoreboardd/web-port-80.conf"
	chmod 0644 "$(DESTDIR)$(DATADIR)/scoreboardd/web-port-80.conf"
	$(INSTALL) -d "$(DESTDIR)$(DATADIR)/scoreboardd/web"
	$(INSTALL) -m 0644 web/* "$(DESTDIR)$(DATADIR)/scoreboardd/web/"
	$(INSTALL) -m 0644 systemd/scoreboardd.sysusers "$(DESTDIR)$(SYSUSERSDIR)/scoreboardd.conf"
	$(INSTALL) -m 0644 docs/man/scoreboardctl.1 "$(DESTDIR)$(MANDIR)/man1/"
	$(INSTALL) -m 0644 docs/man/scoreboardd.conf.5 "$(DESTDIR)$(MANDIR)/man5/"
	$(INSTALL) -m 0644 docs/man/scoreboardd.8 "$(DESTDIR)$(MANDIR)/man8/"
	$(INSTALL) -m 0644 $(EXAMPLES) "$(DESTDIR)$(DOCDIR)/examples/"
	$(INSTALL) -m 0644 $(DOCS) "$(DESTDIR)$(DOCDIR)/"
	@conf="$(DESTDIR)$(SYSCONFDIR)/scoreboardd/scoreboardd.conf"; \
	if [ ! -e "$$conf" ]; then \
	  $(INSTALL) -m 0644 Config/scoreboardd.conf "$$conf"; \
	  echo "Installed the reference configuration as $$conf"; \
	elif cmp -s Config/scoreboardd.conf "$$conf"; then \
	  echo "$$conf is the reference configuration already"; \
	else \
	  $(INSTALL) -m 0644 Config/scoreboardd.conf "$$conf.new"; \
	  echo "Kept your $$conf; the new reference configuration is $$conf.new"; \
	  echo "(compare: diff -u $$conf $$conf.new)"; \
	fi
	@sysusers="$(SYSUSERSDIR)/scoreboardd.conf"; users=""; \
	if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v systemd-sysusers >/dev/null; then \
	  systemd-sysusers "$$sysusers" && users=created; \
	fi; \
	echo; \
	echo "Next:"; \
	if [ -z "$$users" ]; then \
	  echo "  - create the user scoreboardd and its groups:  sudo systemd-sysusers $$sysusers"; \
	fi; \
	echo "  - describe your displays and keypads in $(SYSCONFDIR)/scoreboardd/scoreboardd.conf"; \
	echo "    (examples in $(DOCDIR)/examples), then check it:"; \
	echo "      $(SBINDIR)/scoreboardd --check-config $(SYSCONFDIR)/scoreboardd/scoreboardd.conf"; \
	echo "  - sudo systemctl daemon-reload"; \
	echo "  - sudo systemctl enable --now scoreboardd"; \
	echo "  - journalctl -u scoreboardd -f"; \
	echo "  - let an operator use scoreboardctl:  sudo usermod -aG scoreboard NAME"; \
	echo "  - with [mqtt] configured, give the service the network (TCP and DNS only):"; \
	echo "      sudo mkdir -p /etc/systemd/system/scoreboardd.service.d"; \
	echo "      sudo ln -sf $(DATADIR)/scoreboardd/mqtt-network.conf /etc/systemd/system/scoreboardd.service.d/"

# All tests again, with the release programs that make install installs as the daemon
# and the scoreboardctl they start (scoreboardd as scripts/bolt.sh laid it out): what
# the layout moved must still do all the tests ask. The tests are make test's build.
test-release: deps toolchain $(RELEASE_PROGRAMS)
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	@products=$$(mktemp -d) && trap 'rm -rf "$$products"' EXIT && set -e && \
	ln -s "$(CURDIR)/$(OPTIMIZED_DAEMON)" "$$products/scoreboardd" && \
	ln -s "$(CURDIR)/$(RELEASE_DIR)/scoreboardctl" "$$products/scoreboardctl" && \
	echo "test-release: scoreboardd's code: $$(cut -d ' ' -f 2- "$(OPTIMIZED_DAEMON).made")" && \
	SCOREBOARDD_TEST_PRODUCTS="$$products" $(SWIFT) test --skip-build $(SWIFT_FLAGS)

# The README's install from source, staged in a folder of its own: make install (which
# runs make build), then the installed programs run and accept the installed
# configuration and every example; make uninstall then leaves only the configuration.
test-install: deps toolchain
	@stage=$$(mktemp -d) && trap 'rm -rf "$$stage"' EXIT && set -e && \
	$(MAKE) --no-print-directory install DESTDIR="$$stage" >/dev/null && \
	"$$stage$(SBINDIR)/scoreboardd" --version | head -1 && \
	"$$stage$(BINDIR)/scoreboardctl" --version && \
	for conf in "$$stage$(SYSCONFDIR)/scoreboardd/scoreboardd.conf" \
	  "$$stage$(DOCDIR)"/examples/*.conf; do \
	  "$$stage$(SBINDIR)/scoreboardd" --check-config "$$conf" >/dev/null \
	    || { echo "test-install: the installed scoreboardd refuses $${conf#$$stage}"; exit 1; }; \
	done && \
	$(MAKE) --no-print-directory uninstall DESTDIR="$$stage" >/dev/null && \
	left=$$(cd "$$stage" && find . -type f | sort) && \
	if [ "$$left" != ".$(SYSCONFDIR)/scoreboardd/scoreboardd.conf" ]; then \
	  echo "test-install: make uninstall left:"; echo "$$left"; exit 1; \
	fi && \
	echo "test-install: installed, run, checked every configuration and uninstalled"

# Removes what install put there, except the configuration in $(SYSCONFDIR)/scoreboardd,
# the state in /var/lib/scoreboardd and the user and groups (files may still be
# theirs).
uninstall:
	@if [ -z "$(DESTDIR)" ] && command -v systemctl >/dev/null \
	  && { systemctl is-enabled --quiet scoreboardd.service 2>/dev/null \
	       || systemctl is-active --quiet scoreboardd.service 2>/dev/null; }; then \
	  echo "scoreboardd.service is enabled or running: first  sudo systemctl disable --now scoreboardd"; \
	  exit 1; \
	fi
	rm -f "$(DESTDIR)$(SBINDIR)/scoreboardd" "$(DESTDIR)$(BINDIR)/scoreboardctl" \
	  "$(DESTDIR)$(SYSTEMDUNITDIR)/scoreboardd.service" \
	  "$(DESTDIR)$(DATADIR)/scoreboardd/mqtt-network.conf" \
	  "$(DESTDIR)$(DATADIR)/scoreboardd/web-port-80.conf" \
	  "$(DESTDIR)$(SYSUSERSDIR)/scoreboardd.conf" \
	  "$(DESTDIR)$(MANDIR)/man1/scoreboardctl.1" \
	  "$(DESTDIR)$(MANDIR)/man5/scoreboardd.conf.5" \
	  "$(DESTDIR)$(MANDIR)/man8/scoreboardd.8" \
	  $(foreach file,$(EXAMPLES),"$(DESTDIR)$(DOCDIR)/examples/$(notdir $(file))") \
	  $(foreach file,$(DOCS),"$(DESTDIR)$(DOCDIR)/$(notdir $(file))")
	rmdir "$(DESTDIR)$(DOCDIR)/examples" "$(DESTDIR)$(DOCDIR)" 2>/dev/null || true
	rm -f $(foreach file,$(wildcard web/*),"$(DESTDIR)$(DATADIR)/scoreboardd/web/$(notdir $(file))")
	rmdir "$(DESTDIR)$(DATADIR)/scoreboardd/web" "$(DESTDIR)$(DATADIR)/scoreboardd" 2>/dev/null || true
	@link=/etc/systemd/system/scoreboardd.service.d/mqtt-network.conf; \
	if [ -z "$(DESTDIR)" ] && [ -L "$$link" ]; then \
	  echo "$$link now points nowhere: remove it with  sudo rm $$link"; \
	fi
	@echo "Kept $(SYSCONFDIR)/scoreboardd (the configuration), /var/lib/scoreboardd (the"
	@echo "state) and the user scoreboardd; remove them by hand if they should go."
	@if [ -z "$(DESTDIR)" ]; then echo "Then: sudo systemctl daemon-reload"; fi

clean:
	rm -rf .build
