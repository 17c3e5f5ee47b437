"""The transport: HTTP routes, the WebSocket, request models, limits and security headers."""
