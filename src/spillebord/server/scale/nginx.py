"""The nginx configuration for N workers behind one address (docs/deploy.md shows it;
tests/scale start nginx from Debian with exactly this text, so the two cannot drift).

WebSockets need HTTP/1.1 to the upstream and the ``Upgrade``/``Connection`` headers
passed on; a long ``proxy_read_timeout`` keeps idle game sockets open.  A game socket
(``/ws/<match id>``) goes to the worker chosen by a consistent hash of the match id, so
every socket of a game reaches the same worker, which owns the game (scale/owners.py);
every other request is spread by a hash of nginx's random request id.  When the hashed
worker is down or draining (503 before the upgrade) nginx tries the next one, which
takes the game over (or forwards its events to the owner: scale/forward.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

TEMPLATE = """\
worker_processes 1;
pid {runtime}/nginx.pid;
# Private, and quiet: at "error" nginx writes the request line of a failed upstream
# request, which may hold an invite code or a seat token (docs/security.md).
error_log {error_log} crit;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    server_tokens off;
    client_body_temp_path {runtime}/body;
    proxy_temp_path {runtime}/proxy;
    fastcgi_temp_path {runtime}/fastcgi;
    uwsgi_temp_path {runtime}/uwsgi;
    scgi_temp_path {runtime}/scgi;

    map $uri $spillebord_route {{
        ~^/ws/(?<match>[^/]+)$ $match;  # a game's sockets: its owner
        default $request_id;            # anything else: spread
    }}
    upstream spillebord {{
        hash $spillebord_route consistent;
{servers}
        keepalive 64;
    }}
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      '';
    }}
{sites}}}
"""

PROXY = """\
        client_max_body_size 64k;
        large_client_header_buffers 4 8k;
        location / {{
            proxy_pass http://spillebord;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;  # with the port: the Origin check compares it
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto {proto};
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
            proxy_next_upstream error timeout http_503;  # a draining worker (ops.py)
        }}
"""

PLAIN = """\
    server {{
        listen {listen};
{proxy}    }}
"""

# TLS here.  "listen … ssl http2" (not the "http2 on;" directive, which needs nginx
# 1.25.1: Debian 12 ships 1.22).  HSTS once: the workers add it too behind TLS, so
# theirs is hidden and nginx's (on its own error pages as well) is the one sent.
TLS = """\
    server {{
        listen {tls_listen} ssl http2;
        server_name {server_name};
        ssl_certificate     {certificate};
        ssl_certificate_key {key};
        ssl_protocols TLSv1.2 TLSv1.3;
        proxy_hide_header Strict-Transport-Security;
        add_header Strict-Transport-Security "max-age=31536000; includeSubDomains" always;
{proxy}    }}
    server {{
        listen {listen};
        server_name {server_name};
        return 301 https://$host$request_uri;
    }}
"""


@dataclass(frozen=True)
class Tls:
    """TLS on nginx: the address it listens on, the site's name, certificate and key
    (PEM files)."""

    listen: str
    server_name: str
    certificate: str
    key: str


def render_nginx_conf(upstreams: Sequence[str], listen: str,
                      runtime: str = "/run/spillebord-nginx", *,
                      error_log: str | None = None, tls: Tls | None = None,
                      tls_in_front: bool = False) -> str:
    """nginx.conf proxying ``listen`` to the ``host:port`` workers in ``upstreams``;
    ``runtime`` is a writable directory for the pid file and temp files, ``error_log``
    nginx's error log (``runtime``/error.log by default; keep it readable by the
    operator only).  ``tls``: serve HTTPS there and redirect ``listen`` to it.
    ``tls_in_front``: TLS ends in front of nginx (a cloud balancer), so the workers are
    told the request was HTTPS (Secure cookies, HSTS)."""
    servers = "\n".join(f"        server {u} max_fails=0;" for u in upstreams)
    proto = "https" if tls is not None or tls_in_front else "$scheme"
    proxy = PROXY.format(proto=proto)
    if tls is None:
        sites = PLAIN.format(listen=listen, proxy=proxy)
    else:
        sites = TLS.format(tls_listen=tls.listen, server_name=tls.server_name,
                           certificate=tls.certificate, key=tls.key, listen=listen,
                           proxy=proxy)
    return TEMPLATE.format(servers=servers, runtime=runtime, sites=sites,
                           error_log=error_log or f"{runtime}/error.log")
