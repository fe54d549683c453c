"""The nginx configuration for N workers behind one address (docs/deploy.md shows it;
tests/scale start nginx from Debian with exactly this text, so the two cannot drift).

WebSockets need HTTP/1.1 to the upstream and the ``Upgrade``/``Connection`` headers
passed on; a long ``proxy_read_timeout`` keeps idle game sockets open.  Any worker can
serve any room, so plain round robin is enough (no sticky sessions).
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

    upstream spillebord {{
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
