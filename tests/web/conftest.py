"""The web client's tests share a server process and a browser per test module."""

from .web_support import browser, web_server

__all__ = ["browser", "web_server"]
