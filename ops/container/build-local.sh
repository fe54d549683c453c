#!/bin/sh
# Build and run the worker image with no image registry (docs/deploy.md "Containers"):
#   1. a Debian 12 base image from Debian's own packages (debootstrap into a temporary
#      folder, then `podman import`),
#   2. the project's Containerfile on it (`podman build $BUILD_OPTS --build-arg BASE=...`),
#   3. one container from it, on SQLite, until its /healthz and /readyz answer.
# Needs root (debootstrap), podman, debootstrap, curl, and Debian's package mirror.
# Usage (from the repository's root): sh ops/container/build-local.sh [port]
set -eu
PORT=${1:-18080}
BASE=localhost/debian:bookworm-local
IMAGE=localhost/spillebord:local
NAME=spillebord-smoke
# Where crun cannot create containers (a host with cgroups v1 and v2 mounted side by
# side: "cgroups in hybrid mode not supported"), build with chroot isolation (no OCI
# runtime for the RUN steps) and run without cgroups; override as needed.
BUILD_OPTS=${BUILD_OPTS:---isolation=chroot}
RUN_OPTS=${RUN_OPTS:---cgroups=disabled}
ROOTFS=$(mktemp -d /var/tmp/spillebord-rootfs.XXXXXX)
cleanup() {
    podman rm -f "$NAME" >/dev/null 2>&1 || true
    rm -rf "$ROOTFS"
}
trap cleanup EXIT

step() { printf '\n== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }

if ! podman image exists "$BASE"; then
    step "debootstrap bookworm (minbase) into $ROOTFS"
    debootstrap --variant=minbase bookworm "$ROOTFS" http://deb.debian.org/debian
    step "podman import -> $BASE"
    tar -C "$ROOTFS" -c . | podman import - "$BASE"
fi

# this host's CA bundle, for a proxy that re-signs TLS (pip and uv inside the build)
CA=${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}
if [ -f "$CA" ]; then
    BUILD_OPTS="$BUILD_OPTS --volume $CA:/run/build-ca.crt:ro --build-arg CA_BUNDLE=/run/build-ca.crt"
fi

step "podman build -> $IMAGE"
podman build $BUILD_OPTS --build-arg BASE="$BASE" -f ops/container/Containerfile -t "$IMAGE" .

step "podman run $IMAGE (SQLite, port $PORT)"
podman run $RUN_OPTS -d --name "$NAME" -p "127.0.0.1:$PORT:8000" \
    -e SPILLEBORD_DB=sqlite:////tmp/spillebord.db -e SPILLEBORD_MIGRATE=1 "$IMAGE"
i=0
until curl -fsS "http://127.0.0.1:$PORT/healthz"; do
    i=$((i + 1)); [ $i -lt 120 ] || { podman logs "$NAME"; exit 1; }; sleep 0.5
done
echo
i=0
until curl -fsS "http://127.0.0.1:$PORT/readyz"; do
    i=$((i + 1)); [ $i -lt 240 ] || { podman logs "$NAME"; exit 1; }; sleep 0.5
done
echo
step "the container answers /healthz and /readyz"
podman logs "$NAME" 2>&1 | tail -5
