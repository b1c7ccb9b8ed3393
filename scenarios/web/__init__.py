"""``tapeline serve``: the live web table, a page a judge lays out, drags and questions.

The page is a client of :class:`tapeline.Game`, as the command line is: :mod:`.table` holds the
served table (its scenario document and the one warm game made from it), :mod:`.app` the HTTP
routes (Starlette), :mod:`.serve` the command (uvicorn, the address to open, the guards), and
``page/`` the page itself (one HTML, one script, one style sheet; nothing fetched from the
network). The contract is docs/web-table.md's.
"""
