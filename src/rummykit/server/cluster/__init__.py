"""Several ``rummykit serve`` processes serving the same tables (``--redis-url``).

PostgreSQL stays the store of record and also holds each table's lease (which node owns
it, at which epoch: :mod:`.lease`), taken and given up as tables come and go
(:mod:`.ownership`); Redis carries the messages between nodes (:mod:`.bus`). A client
may connect to any node: a node that does not own a table relays the client's websocket
(:mod:`.relay`) and the table's REST requests (:mod:`.http_relay`) to the owner. When an
owner dies, another node takes its tables over from the event log (:mod:`.takeover`).
:mod:`.node` puts these together. Nothing here runs without ``--redis-url``: the
single-process server is unchanged.
"""
