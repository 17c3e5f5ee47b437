"""The table protocol's one definition: WebSocket frames both ways and the REST bodies (docs/protocol.md).

Below the server and the clients alike (it needs only :mod:`dicepoker.core`), so the server, the Python
client and the generated schema for the browser and the docs all read the same models.
"""
