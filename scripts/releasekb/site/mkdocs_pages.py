"""The generated pages as MkDocs pages: GeneratedFile, each one's file, in memory (MkDocs 1.6's
generated files); GeneratedPage, the renderer's page object (rendered_page.py) given to MkDocs as
a `Page` subclass with its own `read_source` and `render`, as Material's blog gives its views; and
the title MkDocs would make of a page's heading."""

from __future__ import annotations

import re
from functools import cached_property

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc
from mkdocs.utils import weak_property

from releasekb.site.rendered_page import RenderedPage

# The package's theme overrides (main.html, 404.html, the search box, the sitemap) and the
# assets every page of a whole site loads: MkDocs copies the files of a theme folder into the site.


def markdown_title(title: str) -> str:
    """The page title MkDocs makes of the heading `# title`, as HTML: punctuation as character
    references, which Markdown keeps as the characters (a title such as "`__init__` hooks"
    must not turn into emphasis), whitespace collapsed. Rendered titles have no line breaks;
    tests/test_render.py checks the result against MkDocs' own conversion."""
    return " ".join(_PUNCTUATION.sub(lambda m: f"&#{ord(m[0])};", title).split())


_PUNCTUATION = re.compile(r"[!-/:-@\[-`{-~]")  # every ASCII punctuation character


class GeneratedFile(File):
    """A generated page's file (or the features index's filter text), in memory: made with
    `File.generated`. Its text is the page's standalone Markdown (markdown_export.py), made only
    when something reads it (MkDocs never does: GeneratedPage gives it the page).

    A dirty build (`releasekb serve` after an edit) builds only the files that say they are
    modified: MkDocs' own File says so of every file in memory, this one only when its page
    changed since the last build that was kept (generate.LanguagePages.is_unbuilt)."""

    made: RenderedPage | None = None  # None: a file that is not a page (its text given)
    changed: bool = True

    @classmethod
    def of(cls, config: MkDocsConfig, src_uri: str, made: RenderedPage | str, changed: bool) -> GeneratedFile:
        """made: the page, or the file's text."""
        file = cls.generated(config, src_uri, content=made if isinstance(made, str) else "")
        file.made = None if isinstance(made, str) else made
        file.changed = changed
        return file

    @property
    def content_string(self) -> str:
        return self.made.markdown() if self.made is not None else File.content_string.fget(self)

    @content_string.setter
    def content_string(self, value: str) -> None:  # another plugin's text replaces the page's
        self.made = None
        File.content_string.fset(self, value)

    @property
    def content_bytes(self) -> bytes:
        return self.made.markdown().encode("utf-8") if self.made is not None else File.content_bytes.fget(self)

    @content_bytes.setter
    def content_bytes(self, value: bytes) -> None:
        self.made = None
        File.content_bytes.fset(self, value)

    def is_modified(self) -> bool:
        return self.changed


class GeneratedPage(Page):
    """A page the plugin made, given to MkDocs as the page object it is (rendered_page.py): its
    HTML, title, description, table of contents and anchors, as the renderer made them, with
    nothing to read or convert. MkDocs' own Page.render builds a new Markdown converter, with
    every extension, for each page, which was most of what a generated page cost."""

    def __init__(self, title: str | None, file: File, config: MkDocsConfig, made: RenderedPage):
        self.made = made
        super().__init__(title, file, config)

    def read_source(self, config: MkDocsConfig) -> None:
        self.meta = self.made.meta()
        # What a plugin reading the page's Markdown (on_page_markdown) sees: its title.
        self.markdown = "# " + self.title_html

    @cached_property
    def title_html(self) -> str:
        """The page title MkDocs would make of the page's heading (markdown_title). Made once:
        the theme asks for a page's title several times a page (head, header, navigation)."""
        return markdown_title(self.made.title)

    @weak_property
    def title(self) -> str | None:
        """The navigation's title for the page when the site's `nav` names one, else its heading's."""
        if self.markdown is None:
            return None
        return self.title_html or Page.title.func(self)  # a page without a heading: MkDocs' own choice

    def render(self, config: MkDocsConfig, files: Files) -> None:
        self.content = self.made.html
        self.toc = get_toc(self.made.toc_tokens())
        self.present_anchor_ids = set(self.made.anchor_ids())
        # The links of generated pages are checked by the tests (tests/test_links.py), not by MkDocs.
        self.links_to_anchors = {}


def navigation_titles(nav: list | None, files: Files) -> dict[str, str]:
    """{src_uri: title} of the pages the site's `nav` gives a title (`- Release notes: notes/index.md`)."""
    titles = {}
    for item in nav or []:
        if not isinstance(item, dict):
            continue
        for title, value in item.items():
            if isinstance(value, list):
                titles.update(navigation_titles(value, files))
            elif isinstance(value, str) and (file := files.get_file_from_path(value)) is not None:
                titles[file.src_uri] = title
    return titles
