# satlab's instructor image (compose.yaml builds it; the build context is the
# repository root). Its build steps are the commands of `make build-native
# build-frontend`, verbatim (plus the frontend's `npm ci` of `make deps`), so
# the image builds what CI builds and tests; tests/compose checks that they
# stay the same.

# The native tools satlink, swf-tunnel and satlab-pep (make build-native).
FROM debian:bookworm AS native
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends build-essential cmake ninja-build libssl-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY codec codec
RUN cmake -S codec -B build/codec -G Ninja -DCMAKE_BUILD_TYPE=Release
RUN cmake --build build/codec --parallel "$(nproc)"

# The browser labs: the codec compiled to WebAssembly by Debian's emscripten
# (make build-wasm), then the frontend that imports it from build/wasm (make
# build-frontend). Vite 8 needs Node >= 20.19 and Debian 12 has 18, so this
# stage starts from the official Node 20 image, which is Debian 12 as well:
# Debian's emscripten installs there as on a developer's machine. emcc runs its
# JavaScript optimiser on the Debian nodejs it depends on (/usr/bin/node, with
# Debian's acorn); npm, tsc and Vite run on the image's Node 20 (/usr/local/bin,
# first on PATH).
FROM node:20-bookworm AS web
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends cmake make emscripten \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY codec codec
RUN codec/wasm/build.sh
# The dependencies first, from the lock file alone: a change of the sources
# does not download them again.
COPY frontend/package.json frontend/package-lock.json frontend/
RUN cd frontend && npm ci --no-audit --no-fund
# The channel presets' one table, which the browser labs read at build time.
COPY labs/channels.json labs/channels.json
COPY frontend frontend
RUN cd frontend && npm run build

# The backend on Python 3.12 (aiopquic needs it; Debian 12 has 3.11) with what
# its runs call: ip and ss (iproute2), sysctl (procps), modinfo (kmod, to
# detect sch_netem), iperf3, openssl (QUIC certificates), ngtcp2's programs and
# iptables (a split-TCP PEP's TPROXY rules, in the runs' own namespaces); and
# Debian's redis-server, which compose.yaml's `redis` service runs from this
# same image (the broker between the server and its workers).
FROM python:3.12-slim-bookworm
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      iperf3 iproute2 procps kmod openssl ngtcp2-client ngtcp2-server iptables redis-server \
 && rm -rf /var/lib/apt/lists/*
COPY backend /tmp/backend
# pip's downloads stay in BuildKit's cache, not in the image: a change of the
# backend reinstalls its dependencies without fetching them again.
RUN --mount=type=cache,target=/root/.cache/pip pip install --disable-pip-version-check /tmp/backend && rm -rf /tmp/backend
COPY --from=native /src/build/codec/tools/satlink /src/build/codec/tools/swf-tunnel \
     /src/build/codec/tools/satlab-pep /opt/satlab/tools/
COPY --from=web /src/frontend/dist /opt/satlab/frontend
COPY labs /opt/satlab/labs
RUN mkdir -p /var/lib/satlab
# SATLAB_LOCK_DIR is the host's /run/satlab (compose.yaml binds it): CUBIC's
# Hystart is one setting of the host kernel, so the container's runs and any
# satlab on the host claim it in the same place, and neither restores it
# under the other's feet; a start-up sweep releases only the claims of runs
# whose lock there proves them dead, and sees only this container's
# namespaces. A recreated container still finds the value a killed run saved.
ENV SATLAB_TOOLS_DIR=/opt/satlab/tools \
    SATLAB_FRONTEND_DIR=/opt/satlab/frontend \
    SATLAB_LABS_DIR=/opt/satlab/labs \
    SATLAB_DB=/var/lib/satlab/satlab.db \
    SATLAB_LOCK_DIR=/run/satlab \
    PYTHONUNBUFFERED=1
EXPOSE 8000
# Reachable from other machines, so sign-in is required: the instructor's
# token is SATLAB_INSTRUCTOR_TOKEN, or one made at first start and printed
# once in the log (docker compose logs satlab).
CMD ["satlab", "serve", "--host", "0.0.0.0", "--port", "8000", "--new-token"]
