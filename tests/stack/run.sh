#!/usr/bin/env bash
# make test-stack: the instructor's stack for real. A Docker engine and
# Compose v2 (engine.sh), stand-in base images (base-images.sh), then the image
# built from this checkout as compose.yaml builds it, `docker compose up
# --scale worker=2` until healthy (a Redis secret generated for it, as an
# instructor's .env holds one), a real Chromium through the published port
# (sign in as the instructor with the token the log printed once, run
# geo-ideal with a 2 MB download, watch it finish and its page say whether
# its forwarding threads ran SCHED_FIFO, as doctor found the kernel allows,
# see the two workers and run a 4-run campaign over them: stack.spec.ts), `docker compose down`, and
# nothing of the containers left on the host: their processes, their runs'
# namespaces, TUN and veth devices, lock files and Hystart claims.
#
# The compose project is satlab-stack (its own volume, removed at the end), on
# a free loopback port; an instructor's `docker compose up` is not touched.
# On a fresh machine most of the time is compiling Compose (once): the base
# images and the image are made meanwhile, and `docker compose build` then
# finds the image's every layer already built.
# The last line is JSON: seconds of each phase, the image's size.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO"
export COMPOSE_PROJECT_NAME=satlab-stack
export SATLAB_ADDRESS=127.0.0.1
export SATLAB_PORT=${SATLAB_STACK_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
unset SATLAB_INSTRUCTOR_TOKEN # the first start makes one and prints it once, as for an instructor
# The secret Redis requires, made for this test as an instructor's .env holds one (never a default).
export SATLAB_REDIS_PASSWORD=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
now() { date +%s.%N; }
seconds() { python3 -c "print(round($2 - $1, 1))"; }
fail() { echo "test-stack: $*" >&2; exit 1; }

started=$(now)
tests/stack/engine.sh engine
# Compose is compiled from its Go module (minutes, once) while the base images
# and the image are made: those mostly wait for downloads and dpkg, that for a CPU.
compose_log=$(mktemp)
setsid nice -n 15 tests/stack/engine.sh compose >"$compose_log" 2>&1 &
compose_pid=$! # its own process group: stop_compose ends the compiler too, if this test fails first
stop_compose() { kill -- -"$compose_pid" 2>/dev/null || true; }
trap stop_compose EXIT
tests/stack/base-images.sh
prepared=$(now)

host_links() { ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | sort; }
links_before=$(host_links)
# The engine, if engine.sh started it for this test (its images stay).
stop_engine() {
	[ -f /run/satlab-stack-dockerd.pid ] || return 0
	local pid
	pid=$(cat /run/satlab-stack-dockerd.pid)
	kill "$pid" 2>/dev/null || true
	timeout 60 tail --pid="$pid" -f /dev/null || echo "test-stack: dockerd ($pid) did not stop" >&2
	rm -f /run/satlab-stack-dockerd.pid
}
cleanup() {
	stop_compose
	docker compose down --volumes --timeout 60 >/dev/null 2>&1 || true
	stop_engine
}
trap cleanup EXIT

build_log=$(mktemp)
echo "test-stack: building the image (nice -n 15; log: $build_log)"
# docker.io's own CLI builds with the engine's BuildKit (DOCKER_BUILDKIT) as
# compose.yaml says (the context, the Dockerfile, host networking), before the
# Compose plugin is there; `docker compose build` then finds every layer in
# BuildKit's cache, and builds what differs, if anything does.
DOCKER_BUILDKIT=1 nice -n 15 /usr/bin/docker build --network host --progress plain --file Dockerfile . \
	>"$build_log" 2>&1 || { tail -n 40 "$build_log"; fail "the image did not build"; }
built=$(now)
echo "test-stack: the image is built ($(seconds "$prepared" "$built") s); now Compose"
wait "$compose_pid" || { cat "$compose_log"; fail "the Compose plugin was not built"; }
cat "$compose_log"
nice -n 15 docker compose build --progress plain >"$build_log" 2>&1 || { tail -n 40 "$build_log"; fail "the image did not build"; }
compose_built=$(now)
rm -f "$build_log" "$compose_log"
image=$(docker compose config --images | sort -u) # one image for the server, the workers and Redis
[ "$(echo "$image" | wc -l)" = 1 ] || fail "the services run different images: $image"
image_bytes=$(docker image inspect -f '{{.Size}}' "$image")
compilers=$(docker run --rm --entrypoint sh "$image" -c 'for c in cc gcc g++ c++ clang cmake make ld; do command -v $c; done' || true)
[ -z "$compilers" ] || fail "the runtime image carries build tools: $compilers"

echo "test-stack: docker compose up --scale worker=2 on 127.0.0.1:$SATLAB_PORT"
docker compose up --detach --wait --wait-timeout 180 --scale worker=2 || { docker compose logs; fail "the stack did not become healthy"; }
healthy=$(now)
containers=$(docker compose ps --quiet)
[ -z "$(docker compose port redis 6379 2>/dev/null)" ] || fail "Redis is published outside the stack's network"
token=$(docker compose logs satlab | sed -n "s/.*the instructor's token, shown this once (only its hash is kept): //p" | tr -d '\r')
[ -n "$token" ] || { docker compose logs satlab; fail "the first start printed no instructor token"; }
doctor=$(docker compose exec -T satlab satlab doctor)
echo "$doctor" | grep -E '^(cannot|in_container):' || true
# Whether the kernel gives the containers' threads SCHED_FIFO, as doctor asked
# it: the run page must say what satlink's own threads were given.
realtime=true
! echo "$doctor" | grep -q '^cannot: .*SCHED_FIFO' || realtime=false

echo "test-stack: Chromium through http://127.0.0.1:$SATLAB_PORT/"
(cd frontend && STACK_URL="http://127.0.0.1:$SATLAB_PORT/" STACK_TOKEN="$token" STACK_REALTIME="$realtime" NODE_PATH="$PWD/node_modules" \
	npx playwright test --config "$REPO/tests/stack/playwright.config.ts")
run_ids=$(cat frontend/test-output/stack/run-ids)
[ "$(cat frontend/test-output/stack/workers-used)" -ge 1 ] || fail "no worker ran the campaign"
driven=$(now)

docker compose down --volumes --timeout 60
down=$(now)
trap stop_engine EXIT

# Nothing of the container on the host: no process in its cgroup, none of its
# run's namespaces, locks or Hystart claim; no device left in the root namespace.
for container in $containers; do
	leftovers=$(grep -l "$container" /proc/[0-9]*/cgroup 2>/dev/null || true)
	[ -z "$leftovers" ] || fail "processes of container $container outlive it: $leftovers"
done
for run_id in $run_ids; do
	! ip netns list | grep -q "$run_id" || fail "namespaces of run $run_id are left: $(ip netns list | grep "$run_id")"
	! ls /run/satlab 2>/dev/null | grep -q "$run_id" || fail "locks of run $run_id are left in /run/satlab"
done
[ "$(host_links)" = "$links_before" ] || fail "devices appeared in the host's namespace: $(comm -13 <(echo "$links_before") <(host_links))"
if ! compgen -G "/run/satlab/hystart-*" >/dev/null; then
	[ ! -e /run/satlab/hystart.original ] || fail "no run claims Hystart, yet its saved value was not restored"
fi

echo "test-stack: passed"
echo "{\"test_stack_s\": $(seconds "$started" "$down"), \"prepare_s\": $(seconds "$started" "$prepared"), \"build_s\": $(seconds "$prepared" "$built"), \"compose_plugin_and_build_s\": $(seconds "$built" "$compose_built"), \"up_healthy_s\": $(seconds "$compose_built" "$healthy"), \"browser_s\": $(seconds "$healthy" "$driven"), \"down_s\": $(seconds "$driven" "$down"), \"image_bytes\": $image_bytes}"
