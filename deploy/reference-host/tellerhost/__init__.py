"""Teller reference bank host: the /v1 contract of docs/host-api.md, served
from one SQLite file, with fault injection for tests, demos and lab benches.

Standard library only, so it runs wherever python3 does.
"""

VERSION = "1.0.0"
