"""The edge: HTTP routes, pages, API docs, request guards, security headers, trusted
proxies, the WebSocket endpoint and the routes' FastAPI dependencies."""
