#!/usr/bin/env bash
# Debian packages the test suite needs: Chromium for the browser tests, PostgreSQL and
# Redis for the storage and scale-out tests, nginx for the reverse-proxy test, Prometheus
# (promtool) for the alert rules (tests/scale/test_prometheus.py), Node.js and
# npm for the web pages' type check, lint and unit tests (make jscheck).
# Installs only what is missing; needs root (or sudo) on a Debian machine.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -x /usr/lib/postgresql/*/bin/initdb ] 2>/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)  # alert rules: promtool, a real scrape
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "installing Debian packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
