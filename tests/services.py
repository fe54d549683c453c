"""Real servers for the scale-out tests: PostgreSQL 15, Redis and nginx from Debian
packages, started on loopback with temporary directories and free ports, stopped at the
end of the session.  Nothing is mocked; a fixture skips (with the reason) only when the
binary is not installed — scripts/system-deps.sh installs all three.

PostgreSQL refuses to run as root, so when the tests run as root the cluster directory is
owned by the ``postgres`` system user and ``initdb``/``pg_ctl`` run through
``runuser -u postgres --``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from spillebord.server.scale.nginx import render_nginx_conf

ROOT = Path(__file__).resolve().parent.parent
PG_BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
REDIS = shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 20.0, proc: subprocess.Popen[bytes] | None = None
              ) -> None:
    """Wait until something accepts TCP connections on 127.0.0.1:port."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode} before listening")
        with socket.socket() as s:
            s.settimeout(0.5)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def wait_warm(port: int, timeout: float = 90.0,
              proc: subprocess.Popen[bytes] | None = None) -> None:
    """Wait until a worker on 127.0.0.1:port is past its warm-up (``/readyz`` says
    anything but ``warming``: ready, or not ready for a reason of its own)."""
    import httpx

    deadline = time.monotonic() + timeout
    while True:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode} while warming")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz",
                         timeout=5).json().get("status") != "warming":
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"127.0.0.1:{port} still warming after {timeout} s")
        time.sleep(0.05)


def _stop(proc: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout)


# -- PostgreSQL ---------------------------------------------------------------------------
@dataclass
class Postgres:
    """A throwaway PostgreSQL cluster on 127.0.0.1:port with trust authentication."""

    port: int
    data: Path
    bin: Path
    as_user: list[str]
    dbname: str = "spillebord"

    @classmethod
    def start(cls, fsync: bool = False) -> Postgres:
        if not PG_BIN:
            raise FileNotFoundError("PostgreSQL server binaries (/usr/lib/postgresql/*/bin)")
        pg_bin = Path(PG_BIN[-1])
        base = Path(tempfile.mkdtemp(prefix="spillebord-pg-"))
        data = base / "data"
        as_user: list[str] = []
        if os.geteuid() == 0:
            import pwd
            pw = pwd.getpwnam("postgres")
            os.chown(base, pw.pw_uid, pw.pw_gid)
            as_user = ["runuser", "-u", "postgres", "--"]
        port = free_port()
        run = [*as_user, str(pg_bin / "initdb"), "-D", str(data), "-U", "postgres",
               "-A", "trust", "-E", "UTF8", "--no-sync", "--locale=C"]
        subprocess.run(run, check=True, capture_output=True, timeout=120)
        pg = cls(port, data, pg_bin, as_user)
        pg._pg_ctl_start(fsync)
        pg.psql("postgres", f"CREATE DATABASE {pg.dbname}")
        return pg

    def _pg_ctl_start(self, fsync: bool = False) -> None:
        base = self.data.parent
        opts = (f"-p {self.port} -k {base} -c listen_addresses=127.0.0.1 "
                f"-c max_connections=300 -c fsync={'on' if fsync else 'off'} "
                f"-c shared_buffers=64MB")
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-l",
                        str(base / "log"), "-o", opts, "-w", "-t", "60", "start"],
                       check=True, capture_output=True, timeout=90)

    def halt(self) -> None:
        """Stop the server and keep its data (an outage: ``resume`` ends it)."""
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data),
                        "-m", "immediate", "-w", "stop"], check=True, capture_output=True,
                       timeout=60)

    def resume(self) -> None:
        self._pg_ctl_start()

    def psql(self, db: str, sql: str) -> str:
        out = subprocess.run(
            [*self.as_user, str(self.bin / "psql"), "-h", "127.0.0.1", "-p", str(self.port),
             "-U", "postgres", "-d", db, "-v", "ON_ERROR_STOP=1", "-Atc", sql],
            check=True, capture_output=True, text=True, timeout=60)
        return out.stdout

    def create_database(self, name: str) -> str:
        self.psql("postgres", f"CREATE DATABASE {name}")
        return self.url(name)

    def postmaster_pid(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def url(self, db: str | None = None) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{db or self.dbname}"

    def stop(self) -> None:
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data),
                        "-m", "immediate", "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(self.data.parent, ignore_errors=True)


# -- Redis --------------------------------------------------------------------------------
@dataclass
class Redis:
    port: int
    proc: subprocess.Popen[bytes]
    dir: Path

    @classmethod
    def start(cls, port: int | None = None) -> Redis:
        if REDIS is None:
            raise FileNotFoundError("redis-server")
        port = port or free_port()
        d = Path(tempfile.mkdtemp(prefix="spillebord-redis-"))
        proc = subprocess.Popen(
            [REDIS, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(d), "--daemonize", "no",
             "--logfile", str(d / "log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(port, proc=proc)
        return cls(port, proc, d)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        _stop(self.proc)
        shutil.rmtree(self.dir, ignore_errors=True)

    def restart(self) -> None:
        """Stop and start again on the same port (a brief outage)."""
        _stop(self.proc)
        shutil.rmtree(self.dir, ignore_errors=True)
        again = Redis.start(self.port)
        self.proc, self.dir = again.proc, again.dir


class OnLoopback:
    """The http:// and ws:// addresses of a server listening on 127.0.0.1:``port``."""

    port: int

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


# -- app workers --------------------------------------------------------------------------
@dataclass
class Worker(OnLoopback):
    """One ``uvicorn spillebord.server.app:create_app`` process."""

    port: int
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None
    log: Path | None = None
    app: str = "spillebord.server.app:create_app"

    # Generous: the wait ends as soon as the port answers or the process exits, so the
    # deadline only matters on a machine so loaded that a start takes minutes (90 s was
    # too short at load ≈ 25 on 2 cores, issue 30); it never slows a passing run.
    def start(self, timeout: float = 180.0, warm: bool = True) -> Worker:
        """Start the process; wait until it listens and (``warm``) is past its warm-up."""
        return self.launch().wait_started(timeout, warm)

    def launch(self) -> Worker:
        """Start the process and return at once (``wait_started`` waits for it)."""
        self.log = self.log or Path(tempfile.mkstemp(prefix="spillebord-worker-",
                                                     suffix=".log")[1])
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", self.app,
             "--factory", "--host", "127.0.0.1", "--port", str(self.port),
             "--log-level", "warning", "--no-access-log", "--ws-ping-interval", "0"],
            env={**os.environ, **self.env}, stdout=out, stderr=subprocess.STDOUT,
            cwd=ROOT)
        out.close()
        return self

    def wait_started(self, timeout: float = 180.0, warm: bool = True) -> Worker:
        """Wait until the launched process listens and (``warm``) is past its warm-up."""
        wait_port(self.port, timeout, self.proc)
        if warm:  # a slow warm-up on a loaded machine is slowness, not a failure
            wait_warm(self.port, max(timeout, 240.0), self.proc)
        return self

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None:
            _stop(self.proc, 20)
        if self.log is not None:
            self.log.unlink(missing_ok=True)

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log else ""


def worker_env(db_url: str, redis_url: str | None, **extra: str) -> dict[str, str]:
    env = {"SPILLEBORD_DB": db_url, "SPILLEBORD_BOT_DELAY": "0",
           # the tests' fresh databases: each worker migrates (production runs
           # ``spillebord db upgrade`` first, docs/deploy.md)
           "SPILLEBORD_MIGRATE": "1",
           "SPILLEBORD_SOLVER_POOL": "thread", "SPILLEBORD_RATE": "100000",
           "SPILLEBORD_LIMITS": "off",
           # What a worker does at start for speed later costs the tests' many short-
           # lived workers CPU they never use back (issue 30, session 11): no warmed bot
           # process and solver kernels (≈ 4 s CPU a worker start; the first bot move
           # spawns the process; the warm-up is the subject of tests/server/
           # test_warmup.py and the drill, which ask for it with SPILLEBORD_WARM="1",
           # and test_serve.py), and no daily deals chosen ahead (16 solver searches on
           # every fresh database; no services test asks for a daily deal)
           "SPILLEBORD_WARM": "0", "SPILLEBORD_DAILY_AHEAD": "0"}
    if redis_url:
        env["SPILLEBORD_REDIS"] = redis_url
    env.update(extra)
    return env


@dataclass
class Workers:
    """Several worker processes sharing one database and one Redis."""

    items: list[Worker] = field(default_factory=list)

    @classmethod
    def start(cls, n: int, env: dict[str, str], app: str = Worker.app) -> Workers:
        """Start ``n`` workers together (as a deployment's do: their migrations wait for
        one another on PostgreSQL's advisory lock), then wait until each is warm — one
        worker's start no longer waits for the one before."""
        ws = cls([Worker(free_port(), env, app=app) for _ in range(n)])
        try:
            for w in ws.items:
                w.launch()
            for w in ws.items:
                w.wait_started()
        except BaseException:
            ws.stop()
            raise
        return ws

    def __getitem__(self, i: int) -> Worker:
        return self.items[i]

    def stop(self) -> None:
        for w in self.items:
            w.stop()


# -- nginx --------------------------------------------------------------------------------
@dataclass
class Nginx(OnLoopback):
    port: int
    proc: subprocess.Popen[bytes]
    prefix: Path

    @classmethod
    def start(cls, upstreams: Sequence[int]) -> Nginx:
        if NGINX is None:
            raise FileNotFoundError("nginx")
        port = free_port()
        prefix = Path(tempfile.mkdtemp(prefix="spillebord-nginx-"))
        conf = prefix / "nginx.conf"
        conf.write_text(render_nginx_conf(
            [f"127.0.0.1:{p}" for p in upstreams], f"127.0.0.1:{port}",
            runtime=str(prefix)))
        proc = subprocess.Popen(
            [NGINX, "-e", str(prefix / "error.log"), "-p", str(prefix), "-c", str(conf),
             "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(port, proc=proc)
        return cls(port, proc, prefix)

    def stop(self) -> None:
        _stop(self.proc)
        shutil.rmtree(self.prefix, ignore_errors=True)


# -- fixtures -----------------------------------------------------------------------------
def _need(binary: object, name: str) -> None:
    if binary is None or binary == []:
        pytest.skip(f"{name} is not installed (scripts/system-deps.sh installs it)")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    _need(PG_BIN, "PostgreSQL (Debian package postgresql)")
    pg = Postgres.start()
    try:
        yield pg
    finally:
        pg.stop()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    _need(REDIS, "redis-server (Debian package redis-server)")
    r = Redis.start()
    try:
        yield r
    finally:
        r.stop()


@pytest.fixture(scope="session")
def nginx_binary() -> str:
    _need(NGINX, "nginx (Debian package nginx-light)")
    assert NGINX is not None
    return NGINX


_db_counter = iter(range(1, 10**6))


@pytest.fixture
def pg_url(postgres: Postgres) -> str:
    """A fresh, empty database on the session's PostgreSQL server."""
    return postgres.create_database(f"t{os.getpid()}_{next(_db_counter)}")


@contextlib.contextmanager
def started(*things: object) -> Iterator[None]:
    """Stop every started thing (anything with ``stop()``) on the way out."""
    try:
        yield
    finally:
        for t in reversed(things):
            with contextlib.suppress(Exception):
                t.stop()  # type: ignore[attr-defined]
