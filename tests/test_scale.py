"""Page sizes grow linearly with the features, slowly enough that no page passes 2 MB of HTML
at 2,500 features (issue 7). Measured on generated pages of a synthetic corpus shaped like the
real data (releasekb bench's), so that a view repeating content per pair of versions or per
feature x release cell fails here long before a reader downloads it."""

import pytest

from helpers import LANGUAGES, catalog_of
from releasekb.bench.corpus import Corpus
from releasekb.site.render import render_language

LIMIT_BYTES = 2 * 2**20  # no HTML page larger, at...
AT_FEATURES = 2_500
FRAME_BYTES = 60_000  # what Material adds around a page's content (navigation, header, scripts)
# So a page's content may take, per feature of the catalog:
PER_FEATURE = (LIMIT_BYTES - FRAME_BYTES - 20_000) // AT_FEATURES


class Catalogs(dict):
    """Catalogs by number of releases. pytest prints a failing test's arguments, and a catalog's
    own printout spells out every release, entry and feature: keep it to one line."""

    def __repr__(self) -> str:
        return f"<catalogs of {sorted(self)} releases>"


@pytest.fixture(scope="module")
def catalogs(tmp_path_factory):
    """Two corpora: 10 and 20 releases of 60 entries (about 470 and 930 features)."""
    result = Catalogs()
    for releases in (10, 20):
        data = tmp_path_factory.mktemp(f"corpus{releases}") / "releases"
        Corpus(releases, 60, seed=11).write(data)
        result[releases] = catalog_of(data)
    return result


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_would_pass_2_mb_at_2500_features(catalogs, lang):
    catalog = catalogs[20]
    features = len(catalog.features)
    pages = {path: text for path, text in render_language(catalog, lang).items() if path.endswith(".md")}
    too_big = {
        path: f"{len(text.encode()) / features:.0f} bytes per feature"
        for path, text in pages.items()
        if len(text.encode()) > 20_000 + PER_FEATURE * features
    }
    assert too_big == {}, f"more than {PER_FEATURE} bytes per feature: {too_big}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_twice_the_releases_at_most_doubles_any_page_and_the_whole(catalogs, lang):
    small, large = (render_language(catalogs[n], lang) for n in (10, 20))
    growth = len(catalogs[20].features) / len(catalogs[10].features)
    assert 1.8 < growth < 2.2
    total = {n: sum(len(text) for text in pages.values()) for n, pages in ((10, small), (20, large))}
    assert total[20] <= 1.1 * growth * total[10]
    # Every page kind: the largest page of each kind (release, feature, level, index pages).
    for kind in ("releases/", "features/", "stability/", "changelog/", "index.md"):
        biggest = {
            n: max(len(t) for p, t in pages.items() if p.startswith(kind)) for n, pages in ((10, small), (20, large))
        }
        assert biggest[20] <= 1.1 * growth * biggest[10] + 2_000, kind
