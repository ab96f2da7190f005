#!/usr/bin/env bash
# A Docker engine and the Compose v2 CLI for `make test-stack`, installed and
# started only where missing (idempotent). Debian 12 ships docker.io (20.10)
# but no Compose v2 plugin, so the plugin is built from its Go module through
# the Go module proxy once, and kept where the docker CLI looks for plugins.
#   engine.sh engine    the Debian packages (docker.io, mmdebstrap) and a running dockerd
#   engine.sh compose   the Compose plugin (minutes of compiling, once: run.sh
#                       makes the base images meanwhile)
set -euo pipefail

COMPOSE_VERSION=v2.28.1
PLUGIN=/usr/local/lib/docker/cli-plugins/docker-compose
DOCKERD_LOG=/var/log/satlab-dockerd.log
DOCKERD_PID=/run/satlab-stack-dockerd.pid

packages() {
	local missing="" package
	for package in docker.io mmdebstrap; do
		dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing="$missing $package"
	done
	if [ -n "$missing" ]; then
		echo "engine: installing Debian packages:$missing"
		apt-get update -q
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
	fi
}

compose() {
	if ! "$PLUGIN" version 2>/dev/null | grep -q "$COMPOSE_VERSION"; then
		command -v go >/dev/null || { echo "engine: Compose $COMPOSE_VERSION is built with Go, which is not installed" >&2; exit 1; }
		echo "engine: building Docker Compose $COMPOSE_VERSION from its Go module (a few minutes, once)"
		bin=$(mktemp -d) # global: the EXIT trap removes it
		trap 'rm -rf "$bin"' EXIT
		# No debugging information: the linker would strip it anyway (-s -w), so
		# the compiler does not make it (-dwarf=false), which saves compile time.
		GOBIN="$bin" CGO_ENABLED=0 nice -n 15 go install -gcflags=all=-dwarf=false \
			-ldflags "-s -w -X github.com/docker/compose/v2/internal.Version=$COMPOSE_VERSION" \
			"github.com/docker/compose/v2/cmd@$COMPOSE_VERSION"
		install -D -m 0755 "$bin/cmd" "$PLUGIN"
	fi
	echo "engine: $(docker compose version --short | sed 's/^/Compose /')"
}

# No systemd here: dockerd is started by hand when no engine answers; its PID
# goes to $DOCKERD_PID so that run.sh stops what it started (its images, the
# build cache, stay in /var/lib/docker).
engine() {
	if ! docker info >/dev/null 2>&1; then
		echo "engine: starting dockerd (log: $DOCKERD_LOG)"
		setsid dockerd >"$DOCKERD_LOG" 2>&1 </dev/null &
		echo $! >"$DOCKERD_PID"
		for _ in $(seq 1 100); do
			docker info >/dev/null 2>&1 && break
			sleep 0.3
		done
		docker info >/dev/null 2>&1 || { echo "engine: dockerd did not come up; see $DOCKERD_LOG" >&2; exit 1; }
	fi
	echo "engine: $(docker version --format 'Docker {{.Server.Version}}')"
}

case ${1:-} in
engine)
	packages
	engine
	;;
compose) compose ;;
*) echo "usage: engine.sh engine|compose" >&2; exit 2 ;;
esac
