"""Issue 31, finding 6: ``spillebord ops nginx-conf`` renders a configuration that
Debian 12's nginx loads (``nginx -t``), plain and with TLS; through it:

- nginx's error log stays free of seat tokens and invite codes when an upstream fails
  (it logs at ``crit`` only, to the file the operator chose);
- over TLS the page is served with HSTS exactly once (the workers' copy is hidden) and
  the workers are told ``https`` (so their cookies are Secure), also when TLS ends in
  front of nginx (``--tls-in-front``);
- docs/deploy.md shows exactly what the command prints."""

from __future__ import annotations

import re
import ssl
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import pytest
from tests.server.live import LiveServer, settings_for
from tests.services import free_port, wait_port

from spillebord.server.scale.nginx import Tls, render_nginx_conf

pytestmark = pytest.mark.services
DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
SECRET = "Zq8secretTOKENvalue42"


def render(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "spillebord.cli.main", "ops", "nginx-conf",
                           *args], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def certificate(d: Path) -> tuple[Path, Path]:
    cert, key = d / "cert.pem", d / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                    "2", "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


class RunningNginx:
    def __init__(self, binary: str, conf: str, prefix: Path, port: int) -> None:
        (prefix / "nginx.conf").write_text(conf)
        self.proc = subprocess.Popen(
            [binary, "-e", str(prefix / "startup.log"), "-p", str(prefix), "-c",
             str(prefix / "nginx.conf"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(port, proc=self.proc)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def check(binary: str, conf: str, prefix: Path) -> subprocess.CompletedProcess[str]:
    (prefix / "nginx.conf").write_text(conf)
    return subprocess.run([binary, "-t", "-e", str(prefix / "startup.log"), "-p",
                           str(prefix), "-c", str(prefix / "nginx.conf")],
                          capture_output=True, text=True, timeout=60, check=False)


def test_the_rendered_configs_load_on_this_nginx(nginx_binary: str, tmp_path: Path) -> None:
    cert, key = certificate(tmp_path)
    plain = render("--worker", "127.0.0.1:8001", "--worker", "127.0.0.1:8002",
                   "--listen", "127.0.0.1:8000", "--runtime", str(tmp_path),
                   "--error-log", str(tmp_path / "error.log"))
    assert "error_log" in plain and "http_503" in plain
    done = check(nginx_binary, plain, tmp_path)
    assert done.returncode == 0, done.stderr
    tls = render("--worker", "127.0.0.1:8001", "--listen", "127.0.0.1:8080",
                 "--tls-listen", "127.0.0.1:8443", "--server-name", "cards.example.org",
                 "--certificate", str(cert), "--key", str(key), "--runtime", str(tmp_path),
                 "--error-log", str(tmp_path / "error.log"))
    done = check(nginx_binary, tls, tmp_path)
    assert done.returncode == 0, done.stderr  # e.g. 'unknown directive "http2"' on 1.22
    assert tls.count("Strict-Transport-Security") == 2  # hidden from upstream, added once
    half = subprocess.run([sys.executable, "-m", "spillebord.cli.main", "ops",
                           "nginx-conf", "--worker", "127.0.0.1:8001", "--server-name", "x"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert half.returncode == 2 and "together" in half.stderr


def test_no_secret_in_the_error_log_when_an_upstream_fails(nginx_binary: str,
                                                         tmp_path: Path) -> None:
    port, dead = free_port(), free_port()  # nothing listens on ``dead``
    log = tmp_path / "error.log"
    conf = render_nginx_conf([f"127.0.0.1:{dead}"], f"127.0.0.1:{port}",
                             runtime=str(tmp_path), error_log=str(log))
    nginx = RunningNginx(nginx_binary, conf, tmp_path, port)
    try:
        for path in (f"/ws/m1?token={SECRET}", f"/join/{SECRET}",
                     f"/api/invites/{SECRET}/claim"):
            r = httpx.get(f"http://127.0.0.1:{port}{path}", timeout=10)
            assert r.status_code == 502
    finally:
        nginx.stop()
    assert SECRET not in log.read_text() if log.exists() else True
    assert SECRET not in (tmp_path / "startup.log").read_text()


@pytest.mark.parametrize("in_front", [False, True])
def test_over_tls_hsts_once_and_the_workers_hear_https(nginx_binary: str, in_front: bool
                                                        ) -> None:
    with tempfile.TemporaryDirectory(prefix="spillebord-nginx-") as d:
        tmp = Path(d)
        server = LiveServer(settings_for(str(tmp / "games.db"))).start()
        seen: list[str] = []
        try:
            plain, secure = free_port(), free_port()
            cert, key = certificate(tmp)
            tls = None if in_front else Tls(f"127.0.0.1:{secure}", "localhost", str(cert),
                                            str(key))
            conf = render_nginx_conf([f"127.0.0.1:{server.port}"], f"127.0.0.1:{plain}",
                                     runtime=str(tmp), tls=tls, tls_in_front=in_front)
            nginx = RunningNginx(nginx_binary, conf, tmp, secure if tls else plain)
            try:
                if tls is not None:
                    context = ssl.create_default_context(cafile=str(cert))
                    r = httpx.get(f"https://localhost:{secure}/", verify=context, timeout=10)
                    redirect = httpx.get(f"http://127.0.0.1:{plain}/", timeout=10)
                    assert redirect.status_code == 301
                    assert redirect.headers["location"].startswith("https://")
                else:
                    r = httpx.get(f"http://127.0.0.1:{plain}/", timeout=10)
                assert r.status_code == 200
                seen = r.headers.get_list("strict-transport-security")
            finally:
                nginx.stop()
        finally:
            server.stop()
        # the workers add HSTS when told https: behind TLS in front only theirs comes;
        # with TLS on nginx, nginx's replaces theirs — once either way
        assert len(seen) == 1, seen


def test_deploy_doc_shows_the_rendered_tls_config() -> None:
    text = DEPLOY.read_text()
    blocks = re.findall(r"```nginx\n(.*?)```", text, re.S)
    expected = render_nginx_conf(
        ["127.0.0.1:8001", "127.0.0.1:8002"], "80",
        error_log="/var/log/spillebord-nginx/error.log",
        tls=Tls("443", "cards.example.org",
                "/etc/letsencrypt/live/cards.example.org/fullchain.pem",
                "/etc/letsencrypt/live/cards.example.org/privkey.pem"))
    assert expected in blocks, "docs/deploy.md lacks the rendered TLS configuration"
