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

TEMPLATE = """\
worker_processes 1;
pid {runtime}/nginx.pid;
events {{ worker_connections 4096; }}
http {{
    access_log off;
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
    server {{
        listen {listen};
        client_max_body_size 64k;
        location / {{
            proxy_pass http://spillebord;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;  # with the port: the Origin check compares it
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
            proxy_next_upstream error timeout http_503;  # a draining worker (ops.py)
        }}
    }}
}}
"""


def render_nginx_conf(upstreams: Sequence[str], listen: str,
                      runtime: str = "/run/spillebord-nginx") -> str:
    """nginx.conf proxying ``listen`` to the ``host:port`` workers in ``upstreams``;
    ``runtime`` is a writable directory for the pid file and temp files."""
    servers = "\n".join(f"        server {u} max_fails=0;" for u in upstreams)
    return TEMPLATE.format(servers=servers, listen=listen, runtime=runtime)
