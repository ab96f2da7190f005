#!/usr/bin/env bash
# Stand-ins for the official base images the Dockerfile starts from, which no
# registry here serves: Debian 12 root file systems from the Debian archive
# (mmdebstrap), imported under the official names (docker import), so that
# the Dockerfile builds as shipped. They are the only difference from a user's
# site, where Docker pulls the official images. Like those (debuerreotype),
# they take Debian 12 with its updates and security suites, and configure
# dpkg not to fsync each file (force-unsafe-io) and apt not to fetch
# translations: the Dockerfile's apt steps run as fast as on a user's site.
#   debian:bookworm             a minbase Debian 12
#   python:3.12-slim-bookworm   Debian 12 with Python 3.12 in /usr/local, as in
#                               the official slim image (Debian 12 has 3.11:
#                               this host's pyenv 3.12, with pip only)
#   node:20-bookworm            Debian 12 with Node 20 and npm in /usr/local
#                               (this host's Node 20)
# Each also trusts the certificate authorities this host added locally (a
# TLS-inspecting proxy's, for pip and npm in the build). An image that exists
# is kept: remove it (docker rmi) to make it again.
set -euo pipefail

CACHE=${SATLAB_STACK_CACHE:-/var/cache/satlab-stack}
CA_ENV=(--change "ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt"
	--change "ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt"
	--change "ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt")
PATH_ENV=(--change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" --change "ENV LANG=C.UTF-8")

have() { docker image inspect "$1" >/dev/null 2>&1; }

# A minbase Debian 12, made once and kept as a tarball. mmdebstrap, not
# debootstrap: apt fetches the packages in parallel and dpkg installs them in
# a few passes (about 30 s, where debootstrap took minutes).
minbase() {
	if [ ! -f "$CACHE/bookworm-minbase.tar" ]; then
		echo "base-images: mmdebstrap of Debian 12 (minbase, once)"
		mkdir -p "$CACHE"
		nice -n 15 mmdebstrap --quiet --variant=minbase --format=tar --dpkgopt=force-unsafe-io \
			--aptopt='Acquire::Languages "none"' bookworm "$CACHE/bookworm-minbase.tar.part" 2>"$CACHE/mmdebstrap.log" ||
			{ cat "$CACHE/mmdebstrap.log" >&2; exit 1; }
		mv "$CACHE/bookworm-minbase.tar.part" "$CACHE/bookworm-minbase.tar"
	fi
}

# A root from the minbase tarball with more Debian packages and the host's local CAs.
derived_root() {
	local root=$1
	shift
	tar -C "$root" -xf "$CACHE/bookworm-minbase.tar"
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	chroot "$root" apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -q --no-install-recommends \
		ca-certificates "$@" >/dev/null
	if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
		cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
		chroot "$root" update-ca-certificates >/dev/null
	fi
	rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin
	: >"$root/etc/resolv.conf"
}

import() {
	local root=$1 name=$2
	shift 2
	tar -C "$root" -c . | docker import "$@" - "$name" >/dev/null
	echo "base-images: $name ($(docker image inspect -f '{{.Size}}' "$name" | numfmt --to=iec))"
}

python_image() {
	local python_prefix root
	python_prefix=$(pyenv prefix 3.12 2>/dev/null || true)
	[ -x "$python_prefix/bin/python3.12" ] || { echo "base-images: the Python 3.12 stand-in copies pyenv's 3.12, which is not installed" >&2; exit 1; }
	root=$(mktemp -d "$CACHE/root.XXXXXX")
	derived_root "$root" netbase tzdata libssl3 libsqlite3-0 libffi8 libbz2-1.0 liblzma5 zlib1g \
		libreadline8 libncursesw6 libgdbm6 libuuid1 libexpat1
	# What the official image has in /usr/local: the interpreter, its standard
	# library (without its tests, nor the static library) and pip; nothing else
	# this host installed.
	tar -C "$python_prefix" -c --exclude=./lib/python3.12/test --exclude='./lib/python3.12/site-packages/*' --exclude='*.a' \
		--exclude='__pycache__' . | tar -C "$root/usr/local" -x
	cp -a "$python_prefix"/lib/python3.12/site-packages/pip "$python_prefix"/lib/python3.12/site-packages/pip-*.dist-info \
		"$root/usr/local/lib/python3.12/site-packages/"
	for link in python:python3.12 python3:python3.12 pip:pip3.12 pip3:pip3.12; do
		ln -sf "${link#*:}" "$root/usr/local/bin/${link%%:*}"
	done
	sed -i "1s|^#!.*|#!/usr/local/bin/python3.12|" "$root"/usr/local/bin/pip*
	chroot "$root" ldconfig
	chroot "$root" python3 -c 'import ssl, sqlite3, ctypes, zlib, lzma, bz2'
	import "$root" python:3.12-slim-bookworm "${PATH_ENV[@]}" "${CA_ENV[@]}" --change 'CMD ["python3"]'
	rm -rf "$root"
}

node_image() {
	local node_version root
	node_version=$(node --version 2>/dev/null || true)
	[[ $node_version == v20.* ]] || { echo "base-images: the Node 20 stand-in copies this host's Node 20, found ${node_version:-none}" >&2; exit 1; }
	root=$(mktemp -d "$CACHE/root.XXXXXX")
	derived_root "$root"
	install -D -m 0755 "$(command -v node)" "$root/usr/local/bin/node"
	mkdir -p "$root/usr/local/lib/node_modules"
	cp -a "$(npm root -g)/npm" "$root/usr/local/lib/node_modules/npm"
	ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
	ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
	chroot "$root" /usr/local/bin/npm --version >/dev/null
	import "$root" node:20-bookworm "${PATH_ENV[@]}" "${CA_ENV[@]}" --change 'CMD ["node"]'
	rm -rf "$root"
}

minbase
if ! have debian:bookworm; then
	docker import --change "CMD [\"bash\"]" "$CACHE/bookworm-minbase.tar" debian:bookworm >/dev/null
	echo "base-images: debian:bookworm"
fi

# The two derived images at once: each is mostly apt's downloads and dpkg's
# unpacking, one core each.
pids=()
have python:3.12-slim-bookworm || { python_image & pids+=($!); }
have node:20-bookworm || { node_image & pids+=($!); }
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
exit "$failed"
