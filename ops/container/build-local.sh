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
# runtime for the RUN steps; docker format keeps the HEALTHCHECK) and run without
# cgroups; override as needed.
BUILD_OPTS=${BUILD_OPTS:---isolation=chroot --format docker}
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

wait_up() {  # healthz, then readyz 200 (the warm-up done)
    i=0
    until curl -fsS "http://127.0.0.1:$PORT/healthz"; do
        i=$((i + 1)); [ $i -lt 600 ] || return 1; sleep 0.1
    done
    echo; curl -sS "http://127.0.0.1:$PORT/readyz"; echo
    i=0
    until curl -fsS "http://127.0.0.1:$PORT/readyz"; do
        i=$((i + 1)); [ $i -lt 1200 ] || return 1; sleep 0.2
    done
    echo
}

step "podman run $IMAGE (SQLite, port $PORT)"
if podman run $RUN_OPTS -d --name "$NAME" -p "127.0.0.1:$PORT:8000" \
        -e SPILLEBORD_DB=sqlite:////tmp/spillebord.db -e SPILLEBORD_MIGRATE=1 "$IMAGE"; then
    wait_up || { podman logs "$NAME"; exit 1; }
    step "the container answers /healthz and /readyz"
    podman logs "$NAME" 2>&1 | tail -5
    exit 0
fi
# Where the OCI runtime cannot start a container (this project's CI VM: crun and runc
# both fail to set the rlimits, "setrlimit RLIMIT_NOFILE: Operation not permitted"),
# run the image's own file system in a chroot as its user, with its environment and
# command: the image's contents are checked, podman's runtime is not.
step "podman run failed; the image's file system in a chroot instead"
podman rm -f "$NAME" >/dev/null 2>&1 || true
podman create --name "$NAME" "$IMAGE" >/dev/null
MNT=$(podman mount "$NAME")
mount --bind /proc "$MNT/proc"
mount --bind /dev "$MNT/dev"
chroot --userspec=spillebord:spillebord "$MNT" /usr/bin/env -i HOME=/srv/spillebord \
    PATH=/srv/spillebord/.venv/bin:/usr/bin:/bin NUMBA_CACHE_DIR=/srv/spillebord/.numba \
    SPILLEBORD_DB=sqlite:////tmp/spillebord.db SPILLEBORD_MIGRATE=1 \
    sh -c "cd /srv/spillebord && exec uvicorn spillebord.server.app:create_app --factory \
           --host 127.0.0.1 --port $PORT --no-access-log --no-proxy-headers" \
    > "$ROOTFS/worker.log" 2>&1 &
WORKER=$!
ok=0
wait_up && ok=1
kill "$WORKER" 2>/dev/null || true
wait "$WORKER" 2>/dev/null || true
tail -5 "$ROOTFS/worker.log"
umount "$MNT/proc" "$MNT/dev"
podman umount "$NAME" >/dev/null
[ $ok = 1 ] && step "the image's worker answers /healthz and /readyz (chroot, not podman run)"
[ $ok = 1 ]
