"""What every output module shares: its interface (`Output`, which each module meets with its
own functions), the error that stops a build at a text its format cannot carry, and the default
of `give_way`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from mkdocs.exceptions import PluginError

if TYPE_CHECKING:
    from releasekb.kb.catalog import Catalog


class Output(Protocol):
    """One output: a module of outputs/ with these four functions (a module meets a protocol)."""

    def describe(self, lang: str) -> str:
        """How an error names it: 'the badges (zh)'."""

    def wanted(self, catalog: Catalog, lang: str, section: bool) -> bool:
        """Whether this language's site has it; section: the knowledge base is one language's
        section of another site, whose pages exist in that language only."""

    def files(self, catalog: Catalog, lang: str, site_url: str, give_way: Callable[[], None]) -> dict[str, bytes]:
        """{path inside the language's site: bytes}; give_way between long steps (under `serve`)."""

    def paths(self, catalog: Catalog, lang: str, site_url: str) -> set[str]:
        """The paths `files` gives, made without the bytes where it can."""


class OutputError(PluginError):
    """An output the data cannot be written into: the build stops with this message, which names
    the output and, where known, the text (a library's traceback would name neither)."""


def go_on() -> None:
    """give_way outside a job of afterwards.py: nothing to wait for."""
