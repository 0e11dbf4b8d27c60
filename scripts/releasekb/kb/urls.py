"""The URL scheme: the one definition of every address the site has (see README, URL scheme).

Pages are named by their file inside a language's tree ('releases/1.7.md'); MkDocs serves each
as a directory URL ('releases/1.7/'). The default language lives at the site root and every
other under its prefix ('zh/'). Pages, the JSON API, feeds, the inventory, the hook and the URL
contract all build their addresses with these functions, so the scheme changes in one place.
"""

from __future__ import annotations

import posixpath

from releasekb.common.i18n import url_prefix

# Inside each language's tree: what the generator owns (.gitignore lists the same paths).
GENERATED_PATHS = ("index.md", "releases", "features", "stability", "changelog")

HOME = "index.md"
RELEASES_INDEX = "releases/index.md"
FEATURES_INDEX = "features/index.md"
STABILITY_INDEX = "stability/index.md"
CHANGELOG = "changelog/index.md"
UPGRADE = "changelog/upgrade.md"
# Beside the features index: what its words filter searches, {feature id: text}, in the page's
# language. Kept out of the table's rows, where it was most of the page's weight.
FILTER_TEXT_FILE = "features/filter-text.json"
# The pages whose names the scheme fixes, beside the pages the data names (a release, a feature,
# a level): an id or a label key that names one of them would replace it (reserved_name says so).
FIXED_PAGES = (HOME, RELEASES_INDEX, FEATURES_INDEX, STABILITY_INDEX, CHANGELOG, UPGRADE)

# The longest id, version or label key. Each becomes a file name, with a suffix or two on the
# way ('torch-fft.md', 'torch-fft.svg', 'torch-fft/index.html', an editor's '.1.8.yaml.swp', an
# atomic write's '.1.8.yaml.<pid>.tmp'), and file systems refuse a name over 255 bytes: 100
# leaves room for every suffix, and no real id or version comes near it.
MAX_NAME_LENGTH = 100

# Names Windows keeps for its devices, in any case and with any extension ('NUL', 'con.md'): a
# page or a release file named so cannot be written, nor checked out, on Windows.
WINDOWS_RESERVED_NAMES = frozenset(
    ["con", "prn", "aux", "nul", *(f"com{n}" for n in range(1, 10)), *(f"lpt{n}" for n in range(1, 10))]
)

# Machine-readable files, inside a language's site (the API only in the default language's).
API_SCHEMA_VERSION = 1
API_FEATURES = "api/features.json"
API_RELEASES = "api/releases.json"
API_CHANGELOG = "api/changelog.json"
API_APIS = "api/apis.json"
API_SCHEMA = f"api/schema/v{API_SCHEMA_VERSION}.json"
INVENTORY = "objects.inv"
# Search (search.py): each language's Pagefind bundle, the worker that answers Material's search
# box from it (a shared asset), and the small file Material's box fetches before starting it.
SEARCH_BUNDLE = "pagefind"
SEARCH_WORKER = "assets/releasekb-search.js"
MATERIAL_SEARCH_INDEX = "search/search_index.json"
FEED = "feed.xml"
# The hand-written about page every site has (`init` writes one per language), and its section
# that explains how a page reads a level: the notes after a level ("(per 1.5)") link there.
ABOUT = "about.md"
ABOUT_LEVELS_ANCHOR = "reading-stability-levels"


def release_path(version: str) -> str:
    return f"releases/{version}.md"


def feature_path(feature_id: str) -> str:
    return f"features/{feature_id}.md"


def level_path(level_key: str) -> str:
    return f"stability/{level_key}.md"


def reserved_name(path: str) -> str:
    """Why the data cannot name a page's file `path`: it is one of the fixed pages, or its name is
    one Windows reserves; '' when it is free.

    >>> reserved_name(feature_path("index"))
    'its page features/index.md is the features index, which it would replace'
    >>> reserved_name(level_path("Nul")).split(" (")[0], reserved_name(feature_path("fft"))
    ('Nul is a device name on Windows', '')
    """
    if path in FIXED_PAGES:
        folder = posixpath.dirname(path)
        what = f"the {folder} index" if folder and path.endswith("/index.md") else "a page of the site"
        return f"its page {path} is {what}, which it would replace"
    name = posixpath.basename(path).split(".")[0]
    if name.lower() in WINDOWS_RESERVED_NAMES:
        return (
            f"{name} is a device name on Windows (con, prn, aux, nul, com1-com9, lpt1-lpt9), "
            f"where its page {path} cannot be a file"
        )
    return ""


def api_release_path(version: str) -> str:
    return f"api/releases/{version}.json"


def badge_path(feature_id: str) -> str:
    return f"badges/{feature_id}.svg"


def upgrade_query(old: str, new: str) -> str:
    """The upgrade view's query for one pair of versions: every pair shares one page."""
    return f"?from={old}&to={new}"


# The features index's filters, as its address names them (releasekb.js reads the same names):
# words, a level as of a release (as_of: by default `release` when given, else the latest), the
# release an entry mentions the feature in, an area, and the order. `version` is the former name
# of `release`.
FEATURES_FILTERS = ("q", "stability", "as_of", "release", "area", "sort")


def features_query(**filters: str) -> str:
    """The features index's query for some filters, in FEATURES_FILTERS order ('?stability=stable&as_of=1.5')."""
    unknown = set(filters) - set(FEATURES_FILTERS)
    if unknown:
        raise ValueError(f"not a filter of the features index: {', '.join(sorted(unknown))}")
    pairs = [f"{name}={filters[name]}" for name in FEATURES_FILTERS if filters.get(name)]
    return "?" + "&".join(pairs) if pairs else ""


def page_url(path: str) -> str:
    """A page's address inside its language's site (MkDocs directory URLs).

    >>> page_url("releases/1.7.md"), page_url("releases/index.md"), page_url("index.md")
    ('releases/1.7/', 'releases/', '')
    """
    stem = path.removesuffix(".md")
    if stem == "index":
        return ""
    return stem.removesuffix("/index") + "/"


def address_path(address: str) -> str:
    """A page address -> its file: 'changelog/upgrade/' -> 'changelog/upgrade.md', '' -> 'index.md'."""
    return address.rstrip("/") + ".md" if address else HOME


def split_address(address: str) -> tuple[str, str]:
    """'changelog/upgrade/?from=1.4&to=1.7' -> ('changelog/upgrade/', '?from=1.4&to=1.7')."""
    cut = min((i for i in (address.find("?"), address.find("#")) if i >= 0), default=len(address))
    return address[:cut], address[cut:]


def relative_url(from_path: str, to_path: str) -> str:
    """The URL of page `to_path` as seen from page `from_path`, for links between pages.

    >>> relative_url("releases/1.7.md", "features/torch-fft.md"), relative_url("index.md", "index.md")
    ('../../features/torch-fft/', './')
    """
    return relative_site_url(page_url(from_path), page_url(to_path))


def relative_site_url(here: str, target: str) -> str:
    """The URL of site address `target` seen from site address `here` (both directory URLs,
    perhaps in different languages: 'zh/releases/1.7/'; the home page is '' or './').

    >>> relative_site_url("zh/releases/1.7/", "releases/"), relative_site_url("releases/", "releases/1.7/")
    ('../../../releases/', '1.7/')
    >>> relative_site_url("zh/", "./"), relative_site_url("./", "zh/")
    ('../', 'zh/')

    Folder by folder rather than with posixpath.relpath, which resolves both against the
    working directory: pages make tens of thousands of links, and this is 7 times faster."""
    here_folders = [folder for folder in here.split("/")[:-1] if folder != "."]
    target_folders = [folder for folder in target.split("/")[:-1] if folder != "."]
    shared = 0
    for here_folder, target_folder in zip(here_folders, target_folders, strict=False):  # up to the shorter
        if here_folder != target_folder:
            break
        shared += 1
    steps = [".."] * (len(here_folders) - shared) + target_folders[shared:]
    return "/".join(steps) + "/" if steps else "./"


def site_path(languages: tuple[str, ...], lang: str, address: str, anchor: str = "") -> str:
    """An address from the site's root path, in one of the knowledge base's languages:
    '/zh/releases/1.7/#torch-fft'."""
    return "/" + url_prefix(lang, languages) + address + (f"#{anchor}" if anchor else "")


def permanent_url(site_url: str, languages: tuple[str, ...], lang: str, address: str, anchor: str = "") -> str:
    """The address to link to from elsewhere: absolute when the site's address is known, else a
    path from the site's root."""
    path = site_path(languages, lang, address, anchor)
    return site_url.rstrip("/") + path if site_url else path


def permanent_urls(site_url: str, languages: tuple[str, ...], address: str, anchor: str = "") -> dict[str, str]:
    """{lang: permanent_url} of one address in every language of the knowledge base."""
    return {lang: permanent_url(site_url, languages, lang, address, anchor) for lang in languages}
